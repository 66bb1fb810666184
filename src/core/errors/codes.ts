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
export const ErrorCode = {
  MalformedRequest: 'MALFORMED_REQUEST',
  ValidationFailed: 'VALIDATION_FAILED',
  UnknownField: 'UNKNOWN_FIELD',
  VersionMissing: 'VERSION_MISSING',
  VersionConflict: 'VERSION_CONFLICT',
  VersionUnknown: 'VERSION_UNKNOWN',
  VersionRemoved: 'VERSION_REMOVED',
  ElementRemoved: 'ELEMENT_REMOVED',
  ClosedToNewClients: 'CLOSED_TO_NEW_CLIENTS',
  NotFound: 'NOT_FOUND',
  MethodNotAllowed: 'METHOD_NOT_ALLOWED',
  NotAcceptable: 'NOT_ACCEPTABLE',
  PreconditionFailed: 'PRECONDITION_FAILED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  Unauthenticated: 'UNAUTHENTICATED',
  Forbidden: 'FORBIDDEN',
  RateLimited: 'RATE_LIMITED',
  Conflict: 'CONFLICT',
  IdempotencyInFlight: 'IDEMPOTENCY_IN_FLIGHT',
  IdempotencyMismatch: 'IDEMPOTENCY_MISMATCH',
  NoReplacement: 'NO_REPLACEMENT',
  PolicyViolation: 'POLICY_VIOLATION',
  InvalidSchedule: 'INVALID_SCHEDULE',
  InvalidDefinition: 'INVALID_DEFINITION',
  InvalidConfig: 'INVALID_CONFIG',
  SpecUnreadable: 'SPEC_UNREADABLE',
  SpecInvalid: 'SPEC_INVALID',
  RefBroken: 'REF_BROKEN',
  Internal: 'INTERNAL',
  StorageUnavailable: 'STORAGE_UNAVAILABLE',
  TransitionNotAllowed: 'TRANSITION_NOT_ALLOWED',
  LastAdminKey: 'LAST_ADMIN_KEY',
  RequestTimeout: 'REQUEST_TIMEOUT',
  HeadersTooLarge: 'HEADERS_TOO_LARGE',
  ShuttingDown: 'SHUTTING_DOWN',
  UpstreamUnreachable: 'UPSTREAM_UNREACHABLE',
  UpstreamTimeout: 'UPSTREAM_TIMEOUT',
  UpstreamUntranslatable: 'UPSTREAM_UNTRANSLATABLE',
  PackageMissing: 'PACKAGE_MISSING',
} as const;

/** One of the stable error code strings. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Human titles for each code, used as the problem `title`. */
export const errorTitles: Record<ErrorCode, string> = {
  MALFORMED_REQUEST: 'Malformed request',
  VALIDATION_FAILED: 'Validation failed',
  UNKNOWN_FIELD: 'Unknown field',
  VERSION_MISSING: 'API version missing',
  VERSION_CONFLICT: 'API versions disagree',
  VERSION_UNKNOWN: 'Unknown API version',
  VERSION_REMOVED: 'API version removed',
  ELEMENT_REMOVED: 'Deprecated field or parameter past its sunset',
  CLOSED_TO_NEW_CLIENTS: 'Closed to new clients',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  NOT_ACCEPTABLE: 'Not acceptable',
  PRECONDITION_FAILED: 'Precondition failed',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  UNAUTHENTICATED: 'Authentication required',
  FORBIDDEN: 'Forbidden',
  RATE_LIMITED: 'Too many requests',
  CONFLICT: 'Conflict',
  IDEMPOTENCY_IN_FLIGHT: 'Request with this idempotency key is still running',
  IDEMPOTENCY_MISMATCH: 'Idempotency key reused with a different request',
  NO_REPLACEMENT: 'No replacement version',
  POLICY_VIOLATION: 'Lifecycle policy violated',
  INVALID_SCHEDULE: 'Invalid deprecation schedule',
  INVALID_DEFINITION: 'Invalid version definition',
  INVALID_CONFIG: 'Invalid configuration',
  SPEC_UNREADABLE: 'API description unreadable',
  SPEC_INVALID: 'API description invalid',
  REF_BROKEN: 'Broken $ref',
  INTERNAL: 'Internal server error',
  STORAGE_UNAVAILABLE: 'Storage unavailable',
  TRANSITION_NOT_ALLOWED: 'Lifecycle transition not allowed',
  LAST_ADMIN_KEY: 'Last admin key',
  REQUEST_TIMEOUT: 'Request timeout',
  HEADERS_TOO_LARGE: 'Request headers too large',
  SHUTTING_DOWN: 'Service shutting down',
  UPSTREAM_UNREACHABLE: 'Upstream unreachable',
  UPSTREAM_TIMEOUT: 'Upstream timeout',
  UPSTREAM_UNTRANSLATABLE: 'Upstream answer not translatable',
  PACKAGE_MISSING: 'Package not installed',
};
