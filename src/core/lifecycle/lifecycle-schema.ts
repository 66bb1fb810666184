import { Type, type Static, type TNumber, type TObject, type TSchema } from '@sinclair/typebox';
import { createSchemaValidator } from '../config/index.ts';
import { parseIsoInstant } from '../time/index.ts';
import { migrationUrlMaxLength, migrationUrlPattern, migrationUrlRule } from '../text/migration-url.ts';
import { nearestName } from '../text/unknown-key.ts';

// The one shape of a lifecycle: the routing plugin's `lifecycle` option, the loop's `settings`,
// the service's and the gateway's config file all validate against these schemas, and take their
// TypeScript types from them. Rules across fields (a sunset after its deprecation, a version that
// exists) are code: `checkLifecycleRules` and the policy rules.

const instantText = 'must be an ISO 8601 date or epoch milliseconds';
const Instant = Type.Union([Type.String({ format: 'instant' }), Type.Number()], { errorText: instantText });
const Text = Type.String({ minLength: 1, errorText: 'must be a non-empty string' });
// Linked as `rel="deprecation"` and from the portal's pages: never `javascript:`, `data:` or `//host`.
const MigrationUrl = Type.String({
  pattern: migrationUrlPattern,
  maxLength: migrationUrlMaxLength,
  // Said of a number too, so the sentence starts with the type.
  errorText: `must be a string that ${migrationUrlRule.replace(/^must be/, 'is')}, of at most ${migrationUrlMaxLength} characters`,
});

/** An instant: an ISO 8601 string (`2026-07-01` or with a time and zone) or epoch milliseconds. */
export type InstantInput = Static<typeof Instant>;

// A key the schema below gains must be named here too, or its `instant(key)` does not compile.
type DeprecationDateKey = 'extendedAccessUntil' | 'closedToNewClientsAt';

/** The two optional dates beside a deprecation, declared once over whatever instant type the reader uses. */
export function deprecationDatesSchema<I extends TSchema>(instant: (key: DeprecationDateKey) => I) {
  return Type.Object({
    /** The cap on per-client extended access after the sunset: extended access can be granted up to it. */
    extendedAccessUntil: Type.Optional(instant('extendedAccessUntil')),
    /** From this instant, clients that had not called the subject before get a 403 (or are refused the element). */
    closedToNewClientsAt: Type.Optional(instant('closedToNewClientsAt')),
  });
}

/** The two optional dates of a deprecation once read: epoch milliseconds, absent when unset. */
export type DeprecationDates = Static<ReturnType<typeof deprecationDatesSchema<TNumber>>>;

/** The keys of the two optional dates, as the schema lists them. */
export const deprecationDateKeys = Object.keys(deprecationDatesSchema(() => Type.Number()).properties) as Array<
  keyof DeprecationDates
>;

/** The two optional dates of an entry (a config entry that passed its schema, or one already read) in epoch milliseconds. */
export function deprecationDatesOf(entry: Partial<Record<DeprecationDateKey, InstantInput>>): DeprecationDates {
  const dates: DeprecationDates = {};
  for (const key of deprecationDateKeys) {
    const at = entry[key];
    if (at !== undefined) dates[key] = typeof at === 'number' ? at : parseIsoInstant(at);
  }
  return dates;
}

// Each entry is declared once over its instant: the config's (`Instant`), and epoch milliseconds
// for the types of the entry once read (`VersionLifecycle`, `EndpointLifecycle`).
const versionLifecycleSchema = <I extends TSchema>(instant: I) =>
  Type.Object(
    {
      releasedAt: Type.Optional(instant),
      deprecatedAt: Type.Optional(instant),
      sunsetAt: Type.Optional(instant),
      ...deprecationDatesSchema(() => instant).properties,
      removed: Type.Optional(Type.Boolean({ errorText: 'must be a boolean' })),
      /** The version clients should move to; defaults to the newest current version after it. */
      replacement: Type.Optional(Type.String({ errorText: 'must be a string' })),
      /** The migration guide, linked as `rel="deprecation"`; required once deprecated. */
      migrationUrl: Type.Optional(MigrationUrl),
      reason: Type.Optional(
        Type.Union([Type.Literal('planned'), Type.Literal('critical-fix')], {
          errorText: 'must be "planned" or "critical-fix"',
        }),
      ),
    },
    { additionalProperties: false, title: 'a version' },
  );

const VersionLifecycleSchema = versionLifecycleSchema(Instant);

/**
 * One version's lifecycle. A version with a `sunsetAt` is deprecated; after the sunset (or with
 * `removed: true`) its requests answer 410. `replacement` defaults to the newest current version
 * after it; `migrationUrl`, linked as `rel="deprecation"`, is required once deprecated.
 *
 * @example
 * ```ts
 * const v1: VersionLifecycleConfig = { deprecatedAt: '2026-06-01', sunsetAt: '2027-06-01', migrationUrl: 'https://example.com/v1-to-v2' };
 * ```
 */
export type VersionLifecycleConfig = Static<typeof VersionLifecycleSchema>;

/** One version's entry once read ({@link readVersionEntry}): its instants in epoch milliseconds. */
export type VersionLifecycle = Static<ReturnType<typeof versionLifecycleSchema<TNumber>>>;

const endpointLifecycleSchema = <I extends TSchema>(instant: I) =>
  Type.Object(
    {
      version: Text,
      method: Text,
      path: Text,
      // Optional in the shape: the service dates an undated one when it first stores it; the
      // routing plugin, which stores nothing, requires it (`checkLifecycleRules`).
      deprecatedAt: Type.Optional(instant),
      sunsetAt: instant,
      ...deprecationDatesSchema(() => instant).properties,
      migrationUrl: Type.Optional(MigrationUrl),
    },
    { additionalProperties: false, title: 'an endpoint deprecation' },
  );

const EndpointLifecycleSchema = endpointLifecycleSchema(Instant);

/**
 * A deprecated endpoint within a still-supported version; `path` is the route template below the
 * version prefix, e.g. `/books/{id}`.
 *
 * @example
 * ```ts
 * const e: EndpointLifecycleConfig = { version: 'v2', method: 'GET', path: '/books/{id}/summary', deprecatedAt: '2026-09-01', sunsetAt: '2027-09-01' };
 * ```
 */
export type EndpointLifecycleConfig = Static<typeof EndpointLifecycleSchema>;

/** An endpoint deprecation once read ({@link readEndpointEntry}): its instants in epoch milliseconds. */
export type EndpointLifecycle = Static<ReturnType<typeof endpointLifecycleSchema<TNumber>>>;

/** The schema of one entry of `fieldDeprecations`. */
export const FieldDeprecationSchema = Type.Object(
  {
    version: Text,
    // The field named once: every schema of the version whose name is the resource's, or starts
    // with it and a capital (`User`, `UserInput`, `UserDetail`, `UserPartial`…), and that carries it.
    resource: Type.Optional(Text),
    // Or the schemas themselves: one, or the list of those that carry the field (the first names it).
    schema: Type.Optional(
      Type.Union([Text, Type.Array(Text, { minItems: 1 })], {
        errorText: 'must name a schema, or a list of the schemas that carry the field (the first names it)',
      }),
    ),
    field: Text,
    deprecatedAt: Instant,
    sunsetAt: Instant,
    ...deprecationDatesSchema(() => Instant).properties,
    replacement: Type.Optional(Text),
    migrationUrl: Type.Optional(MigrationUrl),
  },
  { additionalProperties: false, title: 'a field deprecation' },
);

/** The schema of one entry of `parameterDeprecations`. */
export const ParameterDeprecationSchema = Type.Object(
  {
    version: Text,
    method: Text,
    path: Text,
    parameter: Text,
    deprecatedAt: Instant,
    sunsetAt: Instant,
    ...deprecationDatesSchema(() => Instant).properties,
    replacement: Type.Optional(Text),
    migrationUrl: Type.Optional(MigrationUrl),
  },
  { additionalProperties: false, title: 'a parameter deprecation' },
);

/**
 * The lifecycle config's schema (TypeBox, so JSON Schema): versions, endpoint, field and parameter
 * deprecations, the header style, the removed status and the audience.
 *
 * @example
 * ```ts
 * const keys = Object.keys(LifecycleConfigSchema.properties); // ['versions', 'endpointDeprecations', …]
 * ```
 */
export const LifecycleConfigSchema = Type.Object(
  {
    versions: Type.Optional(Type.Record(Type.String(), VersionLifecycleSchema)),
    endpointDeprecations: Type.Optional(Type.Array(EndpointLifecycleSchema)),
    /** The former name of `endpointDeprecations`: accepted, with deprecation warning VERSIONARY_DEP002. */
    endpoints: Type.Optional(Type.Array(EndpointLifecycleSchema)),
    /** Fields deprecated within a version that stays active (`docs/api.md#deprecate-a-field-safely`). */
    fieldDeprecations: Type.Optional(Type.Array(FieldDeprecationSchema)),
    /** Query parameters deprecated within a version that stays active. */
    parameterDeprecations: Type.Optional(Type.Array(ParameterDeprecationSchema)),
    /** `iso8601` (default) or `rfc` (RFC 9745 `@seconds` and RFC 8594 HTTP-date); `iso` is its deprecated spelling. */
    headerStyle: Type.Optional(
      Type.Union([Type.Literal('iso8601'), Type.Literal('rfc'), Type.Literal('iso')], {
        errorText: 'must be "iso8601" or "rfc"',
      }),
    ),
    removedStatus: Type.Optional(
      Type.Union([Type.Literal(410), Type.Literal(404)], { errorText: 'must be 410 or 404' }),
    ),
    audience: Type.Optional(
      Type.Union([Type.Literal('public'), Type.Literal('enterprise')], {
        errorText: 'must be "public" or "enterprise"',
      }),
    ),
  },
  { additionalProperties: false, title: 'a lifecycle config' },
);

/**
 * A lifecycle declared in code or a config file, evaluated with the core lifecycle rules: the
 * static type of {@link LifecycleConfigSchema}.
 *
 * @example
 * ```ts
 * const lifecycle: LifecycleConfig = { versions: { v1: { deprecatedAt: '2026-06-01', sunsetAt: '2027-06-01', migrationUrl: '/docs/v1-to-v2' } } };
 * ```
 */
export type LifecycleConfig = Static<typeof LifecycleConfigSchema>;

/** The top-level keys of a lifecycle config, which the service's config file gives to the lifecycle. */
export const lifecycleConfigKeys = Object.keys(LifecycleConfigSchema.properties) as Array<keyof LifecycleConfig>;

/**
 * Every problem of a lifecycle config's shape, at once, each naming its path under `where`
 * (`lifecycle` in the plugin, `''` in the config file). Unknown keys follow rule `valid-config`
 * and suggest the nearest known key.
 *
 * @example
 * ```ts
 * lifecycleShapeErrors({ versions: { v1: { sunset: '2027-01-01' } } }, 'lifecycle');
 * // ['lifecycle.versions.v1.sunset is not a lifecycle key (rule valid-config); did you mean sunsetAt? A version takes …']
 * ```
 */
export function lifecycleShapeErrors(config: unknown, where: string): string[] {
  return [...validator.errors(config, where), ...fieldNamingErrors(config, where)];
}

// A rule across two keys, which the schema cannot say: a field deprecation names `resource` or `schema`, one of the two.
function fieldNamingErrors(config: unknown, where: string): string[] {
  const entries = typeof config === 'object' && config !== null ? (config as LifecycleConfig).fieldDeprecations : [];
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const both = 'resource' in entry && 'schema' in entry;
    if (!both && ('resource' in entry || 'schema' in entry)) return [];
    return [
      `${where === '' ? '' : `${where}.`}fieldDeprecations[${i}] ${both ? 'names both' : 'needs one of'} "resource" (the field named once: "resource": "User", "field": "nickname") ${both ? 'and' : 'or'} "schema" (the schemas that carry it)`,
    ];
  });
}

function unknownLifecycleKey(options: { where: string; key: string; known: string[]; title?: string }): string {
  const { where, key, known, title } = options;
  const near = nearestName(key, known);
  const what = title ?? 'an object';
  return (
    `${where === '' ? key : `${where}.${key}`} is not a lifecycle key (rule valid-config)${near ? `; did you mean ${near}?` : ''} ` +
    `${what.charAt(0).toUpperCase()}${what.slice(1)} takes ${known.join(', ')}`
  );
}

const validator = createSchemaValidator(LifecycleConfigSchema, { unknownKey: unknownLifecycleKey });

/** One version's entry, read when it passes its schema (`undefined` otherwise): instants in epoch milliseconds. */
export const readVersionEntry = entryReader<VersionLifecycle>(VersionLifecycleSchema);

/** One entry of `endpointDeprecations`, read as {@link readVersionEntry} reads a version's. */
export const readEndpointEntry = entryReader<EndpointLifecycle>(EndpointLifecycleSchema);

// The schema says which keys hold an instant (a string of format `instant`, or a number): only
// those are turned into epoch milliseconds, so the entry read has the schema's keys and no other.
function entryReader<Read>(schema: TObject): (entry: unknown) => Read | undefined {
  const check = createSchemaValidator(schema, { unknownKey: unknownLifecycleKey }).check;
  const instants = Object.keys(schema.properties).filter((key) =>
    ((schema.properties[key] as { anyOf?: Array<{ format?: string }> }).anyOf ?? []).some(
      (branch) => branch.format === 'instant',
    ),
  );
  return (entry: unknown) => {
    if (!check(entry)) return undefined;
    const read: Record<string, unknown> = { ...entry };
    for (const key of instants) if (typeof read[key] === 'string') read[key] = parseIsoInstant(read[key]);
    // The schema checked the shape and the format: the cast says what the schema over epochs says.
    return read as Read;
  };
}
