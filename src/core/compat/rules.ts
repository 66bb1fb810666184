import type { ChangeLevel } from './types.ts';

/** What a rule id means and how severe it is. */
export interface RuleInfo {
  level: ChangeLevel;
  description: string;
}

/**
 * Every rule the OpenAPI classifier can report. Ids are stable: a published id never changes
 * meaning. `docs/compatibility.md` lists each one and a test keeps the two in step.
 */
export const compatRules = {
  'endpoint-added': { level: 'compatible', description: 'A new operation (method + path) was added.' },
  'endpoint-removed': { level: 'breaking', description: 'An operation that was not deprecated was removed.' },
  'endpoint-removed-after-deprecation': {
    level: 'risk',
    description:
      'A deprecated operation, or one whose sunset date has passed, was removed; clients were warned but may still call it.',
  },
  'endpoint-removed-before-sunset': {
    level: 'breaking',
    description:
      'An operation was removed before the sunset date it promised (x-sunset on the operation or its path, or a fixed Sunset header).',
  },
  'endpoint-deprecated': { level: 'compatible', description: 'An operation was marked deprecated.' },
  'endpoint-reactivated': { level: 'compatible', description: 'A deprecated operation is no longer deprecated.' },
  'operation-id-changed': {
    level: 'risk',
    description: 'The operationId changed; generated clients rename the method.',
  },

  'request-parameter-added-required': {
    level: 'breaking',
    description: 'A new required path, query or header parameter; old requests lack it.',
  },
  'request-parameter-added-optional': {
    level: 'compatible',
    description: 'A new optional parameter (an optional input).',
  },
  'request-parameter-removed': {
    level: 'breaking',
    description: 'A parameter was removed; clients that send it lose its effect.',
  },
  'request-parameter-became-required': { level: 'breaking', description: 'An optional parameter became required.' },
  'request-parameter-became-optional': {
    level: 'compatible',
    description: 'A required parameter became optional (relaxed validation).',
  },
  'request-parameter-style-changed': {
    level: 'risk',
    description: 'The serialisation (style or explode) of a parameter changed.',
  },
  'request-parameter-deprecated': { level: 'compatible', description: 'A parameter was marked deprecated.' },
  'request-parameter-removed-before-sunset': {
    level: 'breaking',
    description: 'A deprecated parameter was removed before the x-sunset date it promised.',
  },
  'request-parameter-removed-after-sunset': {
    level: 'compatible',
    description: 'A deprecated parameter was removed on or after its x-sunset date, as announced.',
  },
  'request-parameter-removed-after-deprecation': {
    level: 'risk',
    description: 'A deprecated parameter without an x-sunset date was removed; the deprecation promised no date.',
  },
  'request-parameter-sunset-too-soon': {
    level: 'breaking',
    description: 'A parameter was deprecated with an x-sunset date closer than the notice the audience is owed.',
  },

  'request-body-added-required': {
    level: 'breaking',
    description: 'A required request body was added to an operation that had none.',
  },
  'request-body-added-optional': { level: 'compatible', description: 'An optional request body was added.' },
  'request-body-removed': {
    level: 'breaking',
    description: 'The request body was removed; what clients send is ignored.',
  },
  'request-body-became-required': { level: 'breaking', description: 'An optional request body became required.' },
  'request-body-became-optional': { level: 'compatible', description: 'A required request body became optional.' },
  'request-media-type-removed': { level: 'breaking', description: 'A request content type is no longer accepted.' },
  'request-media-type-added': { level: 'compatible', description: 'A new request content type is accepted.' },

  'response-success-status-removed': {
    level: 'breaking',
    description: 'A 2xx/3xx response status is no longer returned.',
  },
  'response-error-status-removed': {
    level: 'risk',
    description: 'A 4xx/5xx/default response is no longer documented.',
  },
  'response-success-status-added': {
    level: 'risk',
    description: 'A new 2xx/3xx status may be returned; clients may expect only the old one.',
  },
  'response-error-status-added': { level: 'compatible', description: 'A new error status is documented.' },
  'response-media-type-removed': { level: 'breaking', description: 'A response content type is no longer produced.' },
  'response-media-type-added': { level: 'compatible', description: 'A new response content type can be negotiated.' },
  'response-header-removed': { level: 'breaking', description: 'A documented response header was removed.' },
  'response-header-became-optional': { level: 'breaking', description: 'A required response header became optional.' },
  'response-header-added': { level: 'compatible', description: 'A new response header is documented.' },
  'response-header-became-required': {
    level: 'compatible',
    description: 'An optional response header became required.',
  },
  'response-deprecation-header-removed': {
    level: 'compatible',
    description:
      'A Deprecation or Sunset header is no longer documented (nor a Link or Warning sent with them, once the operation is no longer deprecated): the end it announced is off.',
  },

  'request-property-removed': {
    level: 'breaking',
    description: 'A request field was removed (spec: removing a field is not compatible).',
  },
  'request-property-added-required': {
    level: 'breaking',
    description: 'A new required request field; old requests lack it.',
  },
  'request-property-added-optional': {
    level: 'compatible',
    description: 'A new optional request field (an optional input).',
  },
  'request-property-became-required': { level: 'breaking', description: 'An optional request field became required.' },
  'request-property-became-optional': {
    level: 'compatible',
    description: 'A required request field became optional (relaxed validation).',
  },
  'request-property-renamed': {
    level: 'breaking',
    description: 'A request field seems renamed: one removed and one of the same type added.',
  },
  'request-property-deprecated': { level: 'compatible', description: 'A request field was marked deprecated.' },
  'request-property-removed-before-sunset': {
    level: 'breaking',
    description: 'A deprecated request field was removed before the x-sunset date it promised.',
  },
  'request-property-removed-after-sunset': {
    level: 'compatible',
    description: 'A deprecated request field was removed on or after its x-sunset date, as announced.',
  },
  'request-property-removed-after-deprecation': {
    level: 'risk',
    description: 'A deprecated request field without an x-sunset date was removed; the deprecation promised no date.',
  },
  'request-property-sunset-too-soon': {
    level: 'breaking',
    description: 'A request field was deprecated with an x-sunset date closer than the notice the audience is owed.',
  },
  'response-property-removed': { level: 'breaking', description: 'A response field was removed.' },
  'response-property-added': {
    level: 'compatible',
    description: 'A new response field was added (clients ignore unknown fields).',
  },
  'response-property-became-optional': {
    level: 'breaking',
    description: 'A response field that was always present may now be missing.',
  },
  'response-property-became-required': { level: 'compatible', description: 'A response field is now always present.' },
  'response-property-renamed': {
    level: 'breaking',
    description: 'A response field seems renamed: one removed and one of the same type added.',
  },
  'response-property-deprecated': { level: 'compatible', description: 'A response field was marked deprecated.' },
  'response-property-removed-before-sunset': {
    level: 'breaking',
    description: 'A deprecated response field was removed before the x-sunset date it promised.',
  },
  'response-property-removed-after-sunset': {
    level: 'compatible',
    description: 'A deprecated response field was removed on or after its x-sunset date, as announced.',
  },
  'response-property-removed-after-deprecation': {
    level: 'risk',
    description: 'A deprecated response field without an x-sunset date was removed; the deprecation promised no date.',
  },
  'response-property-sunset-too-soon': {
    level: 'breaking',
    description: 'A response field was deprecated with an x-sunset date closer than the notice the audience is owed.',
  },
  'response-property-order-changed': {
    level: 'risk',
    description: 'The order of response fields changed; breaks only clients that rely on position.',
  },

  'request-type-changed': { level: 'breaking', description: 'The type of a request value changed.' },
  'request-type-widened': {
    level: 'compatible',
    description: 'A request value accepts more types (for example integer to number).',
  },
  'response-type-changed': { level: 'breaking', description: 'The type of a response value changed.' },
  'response-type-narrowed': {
    level: 'compatible',
    description: 'A response value takes fewer types (for example number to integer).',
  },
  'request-format-changed': { level: 'breaking', description: 'The format of a request value changed.' },
  'request-format-added': { level: 'risk', description: 'A format now restricts a request value.' },
  'request-format-removed': { level: 'compatible', description: 'A format no longer restricts a request value.' },
  'response-format-changed': { level: 'breaking', description: 'The format of a response value changed.' },
  'response-format-added': { level: 'compatible', description: 'A response value now declares a format.' },
  'response-format-removed': { level: 'risk', description: 'A response value no longer promises a format.' },

  'request-enum-value-added': { level: 'compatible', description: 'A request value accepts a new enum value.' },
  'request-enum-value-removed': { level: 'breaking', description: 'A request enum value is no longer accepted.' },
  'request-became-enum': { level: 'breaking', description: 'A free request value was restricted to a list of values.' },
  'request-enum-removed': { level: 'compatible', description: 'A request value is no longer restricted to a list.' },
  'response-enum-value-added': {
    level: 'risk',
    description:
      'A response value may take a new enum value: compatible per the spec, but clients with exhaustive handling break.',
  },
  'response-enum-value-removed': {
    level: 'breaking',
    description:
      'A response enum value is no longer produced; the spec counts removing an enum value as incompatible, since clients that store, filter on or send back the value break.',
  },
  'response-became-enum': {
    level: 'compatible',
    description: 'A response value is now restricted to a list of values.',
  },
  'response-enum-removed': { level: 'risk', description: 'A response value is no longer restricted to a list.' },

  'request-became-nullable': { level: 'compatible', description: 'A request value now accepts null.' },
  'request-became-not-nullable': { level: 'breaking', description: 'A request value no longer accepts null.' },
  'response-became-nullable': { level: 'breaking', description: 'A response value may now be null.' },
  'response-became-not-nullable': { level: 'compatible', description: 'A response value is never null any more.' },

  'request-constraint-tightened': {
    level: 'breaking',
    description: 'A request bound became stricter (maxLength, minimum, pattern added, uniqueItems...).',
  },
  'request-constraint-relaxed': {
    level: 'compatible',
    description: 'A request bound became looser (relaxed validation).',
  },
  'request-constraint-changed': {
    level: 'risk',
    description:
      'A request pattern changed from one real pattern to another, or multipleOf changed: the change cannot be ordered.',
  },
  'response-constraint-tightened': { level: 'compatible', description: 'A response bound became stricter.' },
  'response-constraint-relaxed': {
    level: 'risk',
    description: 'A response bound became looser; clients may receive values they did not expect.',
  },
  'response-constraint-changed': { level: 'risk', description: 'A response pattern or multipleOf changed.' },

  'request-additional-properties-restricted': {
    level: 'breaking',
    description: 'A request object no longer accepts extra fields.',
  },
  'request-additional-properties-allowed': {
    level: 'compatible',
    description: 'A request object now accepts extra fields.',
  },
  'response-additional-properties-restricted': {
    level: 'compatible',
    description: 'A response object no longer carries extra fields.',
  },
  'response-additional-properties-allowed': {
    level: 'compatible',
    description: 'A response object may carry extra fields.',
  },

  'request-variant-added': { level: 'compatible', description: 'A request oneOf/anyOf accepts a new alternative.' },
  'request-variant-removed': {
    level: 'breaking',
    description: 'A request oneOf/anyOf alternative is no longer accepted.',
  },
  'response-variant-added': {
    level: 'risk',
    description: 'A response oneOf/anyOf has a new alternative clients may not handle.',
  },
  'response-variant-removed': {
    level: 'compatible',
    description: 'A response oneOf/anyOf alternative is no longer produced.',
  },
  'request-all-of-added': { level: 'risk', description: 'A request allOf gained a member, which may add constraints.' },
  'request-all-of-removed': { level: 'compatible', description: 'A request allOf lost a member (fewer constraints).' },
  'response-all-of-added': { level: 'compatible', description: 'A response allOf gained a member.' },
  'response-all-of-removed': {
    level: 'risk',
    description: 'A response allOf lost a member; fields it brought may be gone.',
  },
  'request-discriminator-changed': {
    level: 'breaking',
    description: 'The discriminator property or mapping of a request union changed.',
  },
  'response-discriminator-changed': {
    level: 'breaking',
    description: 'The discriminator property or mapping of a response union changed.',
  },
  'security-requirement-added': {
    level: 'breaking',
    description:
      'An operation that accepted anonymous calls now requires credentials (its own security, or the global one it inherits).',
  },
  'security-requirement-removed': { level: 'compatible', description: 'An operation no longer requires credentials.' },
  'security-alternative-removed': {
    level: 'breaking',
    description:
      'A way to authenticate (one entry of the security list) is no longer accepted, and no remaining entry lets its clients in.',
  },
  'security-alternative-added': {
    level: 'compatible',
    description: 'A new way to authenticate is accepted beside the existing ones.',
  },
  'security-scope-added': {
    level: 'breaking',
    description: 'A requirement asks for a new scope; tokens without it are refused.',
  },
  'security-scope-removed': { level: 'compatible', description: 'A requirement no longer asks for a scope.' },
  'security-scheme-removed': {
    level: 'compatible',
    description:
      'A security scheme was removed from the components; operations that used it are judged by their requirements.',
  },
  'security-scheme-deprecated': {
    level: 'compatible',
    description:
      'A security scheme was marked deprecated (OpenAPI 3.2): it still works, and clients should move to another before it goes.',
  },
  'security-scheme-reactivated': {
    level: 'compatible',
    description: 'A security scheme is no longer marked deprecated (OpenAPI 3.2).',
  },

  'webhook-added': { level: 'compatible', description: 'A new webhook (OpenAPI 3.1 `webhooks`) is sent.' },
  'webhook-removed': { level: 'breaking', description: 'A webhook is no longer sent; subscribers stop receiving it.' },
  'callback-added': { level: 'compatible', description: 'An operation has a new callback.' },
  'callback-removed': {
    level: 'breaking',
    description: 'A callback of an operation is no longer called; subscribers stop receiving it.',
  },
  'callback-payload-added': {
    level: 'compatible',
    description: 'A webhook or callback now sends a payload (request body).',
  },
  'callback-payload-removed': { level: 'breaking', description: 'A webhook or callback no longer sends its payload.' },
  'callback-parameter-added': {
    level: 'compatible',
    description: 'A webhook or callback sends a new parameter (header, query...).',
  },
  'callback-parameter-removed': {
    level: 'breaking',
    description: 'A webhook or callback no longer sends a parameter subscribers may read.',
  },
  'callback-response-status-added': {
    level: 'compatible',
    description: 'A webhook or callback accepts a new 2xx/3xx answer from subscribers.',
  },
  'callback-response-status-removed': {
    level: 'breaking',
    description:
      'A 2xx/3xx answer from subscribers is no longer documented; subscribers that give it may be treated as failed deliveries.',
  },

  'request-default-changed': {
    level: 'risk',
    description: 'The default of a request value changed: requests that omit it behave differently.',
  },
} as const satisfies Record<string, RuleInfo>;

/** A rule id known to the classifier. */
export type RuleId = keyof typeof compatRules;

/** Narrow a string to a known rule id. */
export function isRuleId(value: string): value is RuleId {
  return Object.hasOwn(compatRules, value);
}
