import type { ChangeLevel } from './types.ts';

/** What a rule id means and how severe it is. */
export interface RuleInfo {
  level: ChangeLevel;
  description: string;
}

/**
 * Every rule the OpenAPI classifier can report, as `[level, description]`. Ids are stable: a
 * published id never changes meaning. `docs/compatibility.md` lists each one and a test keeps the
 * two in step.
 */
const table = {
  'endpoint-added': ['compatible', 'A new operation (method + path) was added.'],
  'endpoint-removed': ['breaking', 'An operation that was not deprecated was removed.'],
  'endpoint-removed-after-deprecation': [
    'risk',
    'A deprecated operation, or one whose sunset date has passed, was removed; clients were warned but may still call it.',
  ],
  'endpoint-removed-before-sunset': [
    'breaking',
    'An operation was removed before the sunset date it promised (x-sunset on the operation or its path, or a fixed Sunset header).',
  ],
  'endpoint-deprecated': ['compatible', 'An operation was marked deprecated.'],
  'endpoint-reactivated': ['compatible', 'A deprecated operation is no longer deprecated.'],
  'operation-id-changed': ['risk', 'The operationId changed; generated clients rename the method.'],

  'request-parameter-added-required': [
    'breaking',
    'A new required path, query or header parameter; old requests lack it.',
  ],
  'request-parameter-added-optional': ['compatible', 'A new optional parameter (an optional input).'],
  'request-parameter-removed': ['breaking', 'A parameter was removed; clients that send it lose its effect.'],
  'request-parameter-became-required': ['breaking', 'An optional parameter became required.'],
  'request-parameter-became-optional': ['compatible', 'A required parameter became optional (relaxed validation).'],
  'request-parameter-style-changed': ['risk', 'The serialisation (style or explode) of a parameter changed.'],
  ...elementRules('request-parameter', 'parameter'),

  'request-body-added-required': ['breaking', 'A required request body was added to an operation that had none.'],
  'request-body-added-optional': ['compatible', 'An optional request body was added.'],
  'request-body-removed': ['breaking', 'The request body was removed; what clients send is ignored.'],
  'request-body-became-required': ['breaking', 'An optional request body became required.'],
  'request-body-became-optional': ['compatible', 'A required request body became optional.'],
  'request-media-type-removed': ['breaking', 'A request content type is no longer accepted.'],
  'request-media-type-added': ['compatible', 'A new request content type is accepted.'],

  'response-success-status-removed': ['breaking', 'A 2xx/3xx response status is no longer returned.'],
  'response-error-status-removed': ['risk', 'A 4xx/5xx/default response is no longer documented.'],
  'response-success-status-added': [
    'risk',
    'A new 2xx/3xx status may be returned; clients may expect only the old one.',
  ],
  'response-error-status-added': ['compatible', 'A new error status is documented.'],
  'response-media-type-removed': ['breaking', 'A response content type is no longer produced.'],
  'response-media-type-added': ['compatible', 'A new response content type can be negotiated.'],
  'response-header-removed': ['breaking', 'A documented response header was removed.'],
  'response-header-became-optional': ['breaking', 'A required response header became optional.'],
  'response-header-added': ['compatible', 'A new response header is documented.'],
  'response-header-became-required': ['compatible', 'An optional response header became required.'],
  'response-deprecation-header-removed': [
    'compatible',
    'A Deprecation or Sunset header is no longer documented (nor a Link or Warning sent with them, once the operation is no longer deprecated): the end it announced is off.',
  ],

  'request-property-removed': ['breaking', 'A request field was removed (spec: removing a field is not compatible).'],
  'request-property-added-required': ['breaking', 'A new required request field; old requests lack it.'],
  'request-property-added-optional': ['compatible', 'A new optional request field (an optional input).'],
  'request-property-became-required': ['breaking', 'An optional request field became required.'],
  'request-property-became-optional': ['compatible', 'A required request field became optional (relaxed validation).'],
  'request-property-renamed': [
    'breaking',
    'A request field seems renamed: one removed and one of the same type added.',
  ],
  ...elementRules('request-property', 'request field'),
  'response-property-removed': ['breaking', 'A response field was removed.'],
  'response-property-added': ['compatible', 'A new response field was added (clients ignore unknown fields).'],
  'response-property-became-optional': ['breaking', 'A response field that was always present may now be missing.'],
  'response-property-became-required': ['compatible', 'A response field is now always present.'],
  'response-property-renamed': [
    'breaking',
    'A response field seems renamed: one removed and one of the same type added.',
  ],
  ...elementRules('response-property', 'response field'),
  'response-property-order-changed': [
    'risk',
    'The order of response fields changed; breaks only clients that rely on position.',
  ],

  'request-type-changed': ['breaking', 'The type of a request value changed.'],
  'request-type-widened': ['compatible', 'A request value accepts more types (for example integer to number).'],
  'response-type-changed': ['breaking', 'The type of a response value changed.'],
  'response-type-narrowed': ['compatible', 'A response value takes fewer types (for example number to integer).'],
  'request-format-changed': ['breaking', 'The format of a request value changed.'],
  'request-format-added': ['risk', 'A format now restricts a request value.'],
  'request-format-removed': ['compatible', 'A format no longer restricts a request value.'],
  'response-format-changed': ['breaking', 'The format of a response value changed.'],
  'response-format-added': ['compatible', 'A response value now declares a format.'],
  'response-format-removed': ['risk', 'A response value no longer promises a format.'],

  'request-enum-value-added': ['compatible', 'A request value accepts a new enum value.'],
  'request-enum-value-removed': ['breaking', 'A request enum value is no longer accepted.'],
  'request-became-enum': ['breaking', 'A free request value was restricted to a list of values.'],
  'request-enum-removed': ['compatible', 'A request value is no longer restricted to a list.'],
  'response-enum-value-added': [
    'risk',
    'A response value may take a new enum value: compatible per the spec, but clients with exhaustive handling break.',
  ],
  'response-enum-value-removed': [
    'breaking',
    'A response enum value is no longer produced; the spec counts removing an enum value as incompatible, since clients that store, filter on or send back the value break.',
  ],
  'response-became-enum': ['compatible', 'A response value is now restricted to a list of values.'],
  'response-enum-removed': ['risk', 'A response value is no longer restricted to a list.'],

  'request-became-nullable': ['compatible', 'A request value now accepts null.'],
  'request-became-not-nullable': ['breaking', 'A request value no longer accepts null.'],
  'response-became-nullable': ['breaking', 'A response value may now be null.'],
  'response-became-not-nullable': ['compatible', 'A response value is never null any more.'],

  'request-constraint-tightened': [
    'breaking',
    'A request bound became stricter (maxLength, minimum, pattern added, uniqueItems...).',
  ],
  'request-constraint-relaxed': ['compatible', 'A request bound became looser (relaxed validation).'],
  'request-constraint-changed': [
    'risk',
    'A request pattern changed from one real pattern to another, or multipleOf changed: the change cannot be ordered.',
  ],
  'response-constraint-tightened': ['compatible', 'A response bound became stricter.'],
  'response-constraint-relaxed': [
    'risk',
    'A response bound became looser; clients may receive values they did not expect.',
  ],
  'response-constraint-changed': ['risk', 'A response pattern or multipleOf changed.'],

  'request-additional-properties-restricted': ['breaking', 'A request object no longer accepts extra fields.'],
  'request-additional-properties-allowed': ['compatible', 'A request object now accepts extra fields.'],
  'response-additional-properties-restricted': ['compatible', 'A response object no longer carries extra fields.'],
  'response-additional-properties-allowed': ['compatible', 'A response object may carry extra fields.'],

  'request-variant-added': ['compatible', 'A request oneOf/anyOf accepts a new alternative.'],
  'request-variant-removed': ['breaking', 'A request oneOf/anyOf alternative is no longer accepted.'],
  'response-variant-added': ['risk', 'A response oneOf/anyOf has a new alternative clients may not handle.'],
  'response-variant-removed': ['compatible', 'A response oneOf/anyOf alternative is no longer produced.'],
  'request-all-of-added': ['risk', 'A request allOf gained a member, which may add constraints.'],
  'request-all-of-removed': ['compatible', 'A request allOf lost a member (fewer constraints).'],
  'response-all-of-added': ['compatible', 'A response allOf gained a member.'],
  'response-all-of-removed': ['risk', 'A response allOf lost a member; fields it brought may be gone.'],
  'request-discriminator-changed': ['breaking', 'The discriminator property or mapping of a request union changed.'],
  'response-discriminator-changed': ['breaking', 'The discriminator property or mapping of a response union changed.'],
  'security-requirement-added': [
    'breaking',
    'An operation that accepted anonymous calls now requires credentials (its own security, or the global one it inherits).',
  ],
  'security-requirement-removed': ['compatible', 'An operation no longer requires credentials.'],
  'security-alternative-removed': [
    'breaking',
    'A way to authenticate (one entry of the security list) is no longer accepted, and no remaining entry lets its clients in.',
  ],
  'security-alternative-added': ['compatible', 'A new way to authenticate is accepted beside the existing ones.'],
  'security-scope-added': ['breaking', 'A requirement asks for a new scope; tokens without it are refused.'],
  'security-scope-removed': ['compatible', 'A requirement no longer asks for a scope.'],
  'security-scheme-removed': [
    'compatible',
    'A security scheme was removed from the components; operations that used it are judged by their requirements.',
  ],
  'security-scheme-deprecated': [
    'compatible',
    'A security scheme was marked deprecated (OpenAPI 3.2): it still works, and clients should move to another before it goes.',
  ],
  'security-scheme-reactivated': ['compatible', 'A security scheme is no longer marked deprecated (OpenAPI 3.2).'],

  'webhook-added': ['compatible', 'A new webhook (OpenAPI 3.1 `webhooks`) is sent.'],
  'webhook-removed': ['breaking', 'A webhook is no longer sent; subscribers stop receiving it.'],
  'callback-added': ['compatible', 'An operation has a new callback.'],
  'callback-removed': ['breaking', 'A callback of an operation is no longer called; subscribers stop receiving it.'],
  'callback-payload-added': ['compatible', 'A webhook or callback now sends a payload (request body).'],
  'callback-payload-removed': ['breaking', 'A webhook or callback no longer sends its payload.'],
  'callback-parameter-added': ['compatible', 'A webhook or callback sends a new parameter (header, query...).'],
  'callback-parameter-removed': ['breaking', 'A webhook or callback no longer sends a parameter subscribers may read.'],
  'callback-response-status-added': [
    'compatible',
    'A webhook or callback accepts a new 2xx/3xx answer from subscribers.',
  ],
  'callback-response-status-removed': [
    'breaking',
    'A 2xx/3xx answer from subscribers is no longer documented; subscribers that give it may be treated as failed deliveries.',
  ],

  'request-default-changed': [
    'risk',
    'The default of a request value changed: requests that omit it behave differently.',
  ],
} as const satisfies Record<string, readonly [ChangeLevel, string]>;

export type RuleId = keyof typeof table;

/**
 * The rules of an element that carries its own `deprecated` and `x-sunset` (sunset.ts judges
 * them), as `[level, description]` with `%` for the element's noun.
 */
function elementRules<K extends string>(kind: K, noun: string) {
  const family = {
    deprecated: ['compatible', 'A % was marked deprecated.'],
    'removed-before-sunset': ['breaking', 'A deprecated % was removed before the x-sunset date it promised.'],
    'removed-after-sunset': ['compatible', 'A deprecated % was removed on or after its x-sunset date, as announced.'],
    'removed-after-deprecation': [
      'risk',
      'A deprecated % without an x-sunset date was removed; the deprecation promised no date.',
    ],
    'sunset-too-soon': [
      'breaking',
      'A % was deprecated with an x-sunset date closer than the notice the audience is owed.',
    ],
  } as const;
  return Object.fromEntries(
    Object.entries(family).map(([suffix, [level, text]]) => [
      `${kind}-${suffix}`,
      [level, text.replace('%', noun)] as const,
    ]),
  ) as Record<`${K}-${keyof typeof family}`, readonly [ChangeLevel, string]>;
}

export const compatRules = Object.fromEntries(
  Object.entries(table).map(([id, [level, description]]) => [id, { level, description }]),
) as Record<RuleId, RuleInfo>;

export function isRuleId(value: string): value is RuleId {
  return Object.hasOwn(compatRules, value);
}
