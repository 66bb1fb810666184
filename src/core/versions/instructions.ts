import type { EndpointInstruction } from './endpoint-instructions.ts';
import type { HttpMethod, JsonSchema } from './types.ts';

/** The newer version added `field` to `schema`; older versions lack it. */
export interface FieldAdded {
  op: 'field-added';
  schema: string;
  field: string;
}
/** The newer version removed `field`; older versions have it as `definition`. */
interface FieldRemoved {
  op: 'field-removed';
  schema: string;
  field: string;
  definition: JsonSchema;
  required?: boolean;
  /**
   * The version whose lifecycle deprecated the field first (the spec's safe deprecation): set by
   * {@link deprecatedFieldRemoved}, and checked against the lifecycle's field deprecations.
   */
  deprecatedIn?: string;
  /** The value older responses show for it (after `from`, when that finds nothing). */
  default?: unknown;
  /** A JSON pointer into the newer body (of `schema`) whose value older responses show for it. */
  from?: string;
}
/** A field removal that ends a field deprecation: see {@link deprecatedFieldRemoved}. */
export type DeprecatedFieldRemoved = FieldRemoved & { deprecatedIn: string };
/** The newer version changed the field's schema; older versions use `previous`. */
interface FieldRetyped {
  op: 'field-retyped';
  schema: string;
  field: string;
  previous: JsonSchema;
  /**
   * Newer value (as text: `"1"`, `"true"`, `"low"`) → the value older responses show. Without it,
   * number or integer ↔ string convert by themselves; any other change of type needs a migration.
   */
  map?: Record<string, unknown>;
  /** Older value (as text) → the value older requests carry up; `map` inverted when left out. */
  mapUp?: Record<string, unknown>;
}
/** The newer version renamed `field` of `schema`; older versions call it `previousName`. */
interface FieldRenamed {
  op: 'field-renamed';
  schema: string;
  field: string;
  previousName: string;
}
/** The newer version renamed a component schema; older versions' documents call it `previousName`. */
interface SchemaRenamed {
  op: 'schema-renamed';
  schema: string;
  previousName: string;
}
/** The newer version added enum values; older versions show each as `mapDownTo[value]`. */
export interface EnumValuesAdded {
  op: 'enum-values-added';
  schema: string;
  /** Left out when `schema` is itself the enum (a component every use refers to). */
  field?: string;
  values: string[];
  mapDownTo?: Record<string, string>;
}
/** The newer version removed enum values; older versions still have them, and older requests carrying one go up as `mapUpTo[value]`. */
interface EnumValuesRemoved {
  op: 'enum-values-removed';
  schema: string;
  /** Left out when `schema` is itself the enum. */
  field?: string;
  values: string[];
  mapUpTo?: Record<string, string>;
}
/** The newer version replaced a whole schema; older versions use `previous`. */
export interface SchemaReplaced {
  op: 'schema-replaced';
  schema: string;
  previous: JsonSchema;
  /**
   * A JSON pointer into the newer body that gives the older one (`/data`: the older version got
   * the page's bare array). The declarative form of a response migration: `defineVersionChange`
   * turns it into one unless the change declares its own for the schema.
   */
  previousFrom?: string;
}
/** The newer version added an endpoint; older versions do not route it. */
interface EndpointAdded {
  op: 'endpoint-added';
  method: HttpMethod;
  path: string;
}

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
