/** Every code, by its name, with its human title (the problem `title`). */
const codes = {
  MalformedRequest: ['MALFORMED_REQUEST', 'Malformed request'],
  ValidationFailed: ['VALIDATION_FAILED', 'Validation failed'],
  UnknownField: ['UNKNOWN_FIELD', 'Unknown field'],
  VersionMissing: ['VERSION_MISSING', 'API version missing'],
  VersionConflict: ['VERSION_CONFLICT', 'API versions disagree'],
  VersionUnknown: ['VERSION_UNKNOWN', 'Unknown API version'],
  VersionRemoved: ['VERSION_REMOVED', 'API version removed'],
  ElementRemoved: ['ELEMENT_REMOVED', 'Deprecated field or parameter past its sunset'],
  EndpointRemoved: ['ENDPOINT_REMOVED', 'Endpoint removed'],
  ClosedToNewClients: ['CLOSED_TO_NEW_CLIENTS', 'Closed to new clients'],
  VersionRetiredForClient: ['VERSION_RETIRED_FOR_CLIENT', 'API version retired for this client'],
  NotFound: ['NOT_FOUND', 'Not found'],
  MethodNotAllowed: ['METHOD_NOT_ALLOWED', 'Method not allowed'],
  NotAcceptable: ['NOT_ACCEPTABLE', 'Not acceptable'],
  PreconditionFailed: ['PRECONDITION_FAILED', 'Precondition failed'],
  PayloadTooLarge: ['PAYLOAD_TOO_LARGE', 'Payload too large'],
  UnsupportedMediaType: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'],
  Unauthenticated: ['UNAUTHENTICATED', 'Authentication required'],
  Forbidden: ['FORBIDDEN', 'Forbidden'],
  RateLimited: ['RATE_LIMITED', 'Too many requests'],
  Conflict: ['CONFLICT', 'Conflict'],
  IdempotencyInFlight: ['IDEMPOTENCY_IN_FLIGHT', 'Request with this idempotency key is still running'],
  IdempotencyMismatch: ['IDEMPOTENCY_MISMATCH', 'Idempotency key reused with a different request'],
  NoReplacement: ['NO_REPLACEMENT', 'No replacement version'],
  PolicyViolation: ['POLICY_VIOLATION', 'Lifecycle policy violated'],
  InvalidSchedule: ['INVALID_SCHEDULE', 'Invalid deprecation schedule'],
  InvalidDefinition: ['INVALID_DEFINITION', 'Invalid version definition'],
  InvalidConfig: ['INVALID_CONFIG', 'Invalid configuration'],
  SpecUnreadable: ['SPEC_UNREADABLE', 'API description unreadable'],
  SpecInvalid: ['SPEC_INVALID', 'API description invalid'],
  RefBroken: ['REF_BROKEN', 'Broken $ref'],
  Internal: ['INTERNAL', 'Internal server error'],
  StorageUnavailable: ['STORAGE_UNAVAILABLE', 'Storage unavailable'],
  TransitionNotAllowed: ['TRANSITION_NOT_ALLOWED', 'Lifecycle transition not allowed'],
  LastAdminKey: ['LAST_ADMIN_KEY', 'Last admin key'],
  RequestTimeout: ['REQUEST_TIMEOUT', 'Request timeout'],
  HeadersTooLarge: ['HEADERS_TOO_LARGE', 'Request headers too large'],
  ShuttingDown: ['SHUTTING_DOWN', 'Service shutting down'],
  UpstreamUnreachable: ['UPSTREAM_UNREACHABLE', 'Upstream unreachable'],
  UpstreamTimeout: ['UPSTREAM_TIMEOUT', 'Upstream timeout'],
  UpstreamUntranslatable: ['UPSTREAM_UNTRANSLATABLE', 'Upstream answer not translatable'],
  PackageMissing: ['PACKAGE_MISSING', 'Package not installed'],
} as const;

/**
 * Stable error codes raised by Versionary. Codes never change meaning once published;
 * `docs/errors.md` documents each one and a test keeps the two in step.
 *
 * @example
 * ```ts
 * import { ErrorCode, VersionaryError } from 'versionary';
 * throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'No user 7.' });
 * ```
 */
export const ErrorCode = Object.fromEntries(Object.entries(codes).map(([name, [code]]) => [name, code])) as {
  readonly [Name in keyof typeof codes]: (typeof codes)[Name][0];
};

/** One of the stable error code strings. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Human titles for each code, used as the problem `title`. */
export const errorTitles = Object.fromEntries(Object.values(codes)) as Record<ErrorCode, string>;
