import type { EndpointInstruction, MembersOf } from './endpoint-instructions.ts';
import type { HttpMethod } from './types.ts';

/**
 * Each schema op's members beside `op`, by kind (`?`: optional), as `readVersionChanges` checks
 * them, and the type of each instruction.
 */
export const schemaMembers = {
  'field-added': { schema: 'string', field: 'string' },
  // The older versions have the field as `definition`. `deprecatedIn`: the version whose lifecycle
  // deprecated the field first (the spec's safe deprecation), set by `deprecatedFieldRemoved` and
  // checked against the lifecycle's field deprecations. `from`: a JSON pointer into the newer body
  // (of `schema`) whose value older responses show for it; `default`: the value they show when
  // `from` finds nothing.
  'field-removed': {
    schema: 'string',
    field: 'string',
    definition: 'schema',
    required: 'flag?',
    deprecatedIn: 'string?',
    default: 'value?',
    from: 'pointer?',
  },
  // `map`: newer value (as text: `"1"`, `"true"`, `"low"`) → the value older responses show. Without
  // it, number or integer ↔ string convert by themselves; any other change of type needs a
  // migration. `mapUp`: older value (as text) → the value older requests carry up; `map` inverted
  // when left out.
  'field-retyped': { schema: 'string', field: 'string', previous: 'schema', map: 'values?', mapUp: 'values?' },
  'field-renamed': { schema: 'string', field: 'string', previousName: 'string' },
  'schema-renamed': { schema: 'string', previousName: 'string' },
  // An enum change names no field when its schema is the enum itself (a referenced component).
  'enum-values-added': { schema: 'string', field: 'string?', values: 'strings', mapDownTo: 'map?' },
  'enum-values-removed': { schema: 'string', field: 'string?', values: 'strings', mapUpTo: 'map?' },
  // `previousFrom`: a JSON pointer into the newer body that gives the older one (`/data`: the older
  // version got the page's bare array). The declarative form of a response migration:
  // `defineVersionChange` turns it into one unless the change declares its own for the schema.
  'schema-replaced': { schema: 'string', previous: 'schema', previousFrom: 'pointer?' },
} as const;

type SchemaStep<Op extends keyof typeof schemaMembers> = MembersOf<(typeof schemaMembers)[Op]>;

/** The newer version added `field` to `schema`; older versions lack it. */
export type FieldAdded = SchemaStep<'field-added'> & { op: 'field-added' };
/** The newer version removed `field`; older versions have it as `definition`. */
type FieldRemoved = SchemaStep<'field-removed'> & { op: 'field-removed' };
/** A field removal that ends a field deprecation: see {@link deprecatedFieldRemoved}. */
export type DeprecatedFieldRemoved = FieldRemoved & { deprecatedIn: string };
/** The newer version changed the field's schema; older versions use `previous`. */
type FieldRetyped = SchemaStep<'field-retyped'> & { op: 'field-retyped' };
/** The newer version renamed `field` of `schema`; older versions call it `previousName`. */
type FieldRenamed = SchemaStep<'field-renamed'> & { op: 'field-renamed' };
/** The newer version renamed a component schema; older versions' documents call it `previousName`. */
type SchemaRenamed = SchemaStep<'schema-renamed'> & { op: 'schema-renamed' };
/** The newer version added enum values; older versions show each as `mapDownTo[value]`. */
export type EnumValuesAdded = SchemaStep<'enum-values-added'> & { op: 'enum-values-added' };
/** The newer version removed enum values; older versions still have them, and older requests carrying one go up as `mapUpTo[value]`. */
type EnumValuesRemoved = SchemaStep<'enum-values-removed'> & { op: 'enum-values-removed' };
/** The newer version replaced a whole schema; older versions use `previous`. */
export type SchemaReplaced = SchemaStep<'schema-replaced'> & { op: 'schema-replaced' };
/** The newer version added an endpoint; older versions do not route it. */
type EndpointAdded = { op: 'endpoint-added'; method: HttpMethod; path: string };

/** One declarative instruction of a version change. */
export type Instruction =
  | FieldAdded
  | FieldRemoved
  | FieldRetyped
  | FieldRenamed
  | EnumValuesAdded
  | EnumValuesRemoved
  | SchemaReplaced
  | SchemaRenamed
  | EndpointAdded
  | EndpointInstruction;

/**
 * Declare that the newer version added a field.
 *
 * @example
 * ```ts
 * fieldAdded('User', 'email')
 * ```
 */
export function fieldAdded(schema: string, field: string): FieldAdded {
  return { op: 'field-added', schema, field };
}

/**
 * Declare that the newer version removed a field that older versions still carry.
 *
 * @example
 * ```ts
 * fieldRemoved({ schema: 'User', field: 'login', definition: { type: 'string' }, from: '/email' })
 * fieldRemoved({ schema: 'User', field: 'nickname', definition: { type: 'string' }, default: '' })
 * ```
 */
export function fieldRemoved(options: Omit<FieldRemoved, 'op'>): FieldRemoved {
  return { op: 'field-removed', ...options };
}

/**
 * Declare that the newer version removed a field that an older version deprecated (the spec's
 * "remove it in the next major version"). It behaves as {@link fieldRemoved}, older versions still
 * carry `definition`, and it records `deprecatedIn` so `checkDeprecatedRemovals` can tell a field
 * removed without notice from one whose deprecation clients were told about.
 *
 * @example
 * ```ts
 * deprecatedFieldRemoved({ schema: 'User', field: 'nickname', deprecatedIn: 'v2', definition: { type: 'string' } })
 * ```
 */
export function deprecatedFieldRemoved(options: Omit<DeprecatedFieldRemoved, 'op'>): DeprecatedFieldRemoved {
  // The same op as fieldRemoved: derivation, migrations and checks need no second case.
  return { op: 'field-removed', ...options };
}

/**
 * Declare that the newer version changed a field's type (or constraints). Number or integer ↔
 * string, an unchanged type and a value `map` translate as data; any other change needs the
 * change's own `responses`/`requests` migrations for the schema.
 *
 * @example
 * ```ts
 * fieldRetyped({ schema: 'User', field: 'id', previous: { type: 'integer' } })
 * fieldRetyped({ schema: 'Task', field: 'priority', previous: { enum: ['low', 'high'] }, map: { '1': 'low', '2': 'high' } })
 * ```
 */
export function fieldRetyped(options: Omit<FieldRetyped, 'op'>): FieldRetyped {
  return { op: 'field-retyped', ...options };
}

/**
 * Declare that the newer version renamed a field: older requests' `previousName` goes up as
 * `field`, newer responses' `field` comes down as `previousName`.
 *
 * @example
 * ```ts
 * fieldRenamed({ schema: 'User', field: 'fullName', previousName: 'name' })
 * ```
 */
export function fieldRenamed(options: Omit<FieldRenamed, 'op'>): FieldRenamed {
  return { op: 'field-renamed', ...options };
}

/**
 * Declare that the newer version renamed a component schema: older versions' documents use
 * `previousName`; bodies are unchanged.
 *
 * @example
 * ```ts
 * schemaRenamed({ schema: 'Account', previousName: 'User' })
 * ```
 */
export function schemaRenamed(options: Omit<SchemaRenamed, 'op'>): SchemaRenamed {
  return { op: 'schema-renamed', ...options };
}

/**
 * Declare enum values added by the newer version, and how older versions show them.
 *
 * @example
 * ```ts
 * enumValuesAdded({ schema: 'User', field: 'status', values: ['pending'], mapDownTo: { pending: 'inactive' } })
 * enumValuesAdded({ schema: 'Status', values: ['pending'], mapDownTo: { pending: 'inactive' } }) // the enum component
 * ```
 */
export function enumValuesAdded(options: Omit<EnumValuesAdded, 'op'>): EnumValuesAdded {
  return { op: 'enum-values-added', ...options };
}

/**
 * Declare enum values removed by the newer version: older versions still show and accept them, and
 * an older request that carries one reaches the handler as `mapUpTo[value]`.
 *
 * @example
 * ```ts
 * enumValuesRemoved({ schema: 'OrderInput', field: 'shipping', values: ['overnight'], mapUpTo: { overnight: 'express' } })
 * ```
 */
export function enumValuesRemoved(options: Omit<EnumValuesRemoved, 'op'>): EnumValuesRemoved {
  return { op: 'enum-values-removed', ...options };
}

/**
 * Declare that the newer version replaced a whole schema (for example a list's shape).
 *
 * @example
 * ```ts
 * schemaReplaced({ schema: 'UserList', previous: { type: 'array', items: { $ref: '#/components/schemas/User' } } })
 * ```
 */
export function schemaReplaced(options: Omit<SchemaReplaced, 'op'>): SchemaReplaced {
  return { op: 'schema-replaced', ...options };
}

/**
 * Declare an endpoint that only the newer version routes.
 *
 * @example
 * ```ts
 * endpointAdded('GET', '/users/{id}/posts')
 * ```
 */
export function endpointAdded(method: HttpMethod, path: string): EndpointAdded {
  return { op: 'endpoint-added', method, path };
}
