/** An ISO 8601 string or epoch milliseconds (the lifecycle config's `InstantInput`). */
type InstantInput = string | number;

/**
 * A field of a named schema, deprecated within a version that stays active: the spec's "safe
 * deprecation of a field". Declared in the lifecycle config as `fieldDeprecations`.
 *
 * @example
 * ```ts
 * const nickname: FieldDeprecationConfig = { version: 'v2', schema: 'UserInput', field: 'nickname', deprecatedAt: '2026-09-01', sunsetAt: '2027-09-01', replacement: 'displayName' };
 * ```
 */
export interface FieldDeprecationConfig {
  version: string;
  /**
   * A component schema of that version, e.g. `User`; or the list of the schemas that carry the
   * field (a resource's representation and its inputs, `['User', 'UserInput']`): the first names it.
   */
  schema: string | readonly string[];
  /** A property of that schema. */
  field: string;
  deprecatedAt: InstantInput;
  sunsetAt: InstantInput;
  /** The property of the same schema that takes its place. */
  replacement?: string;
  migrationUrl?: string;
}

/**
 * A query parameter of one operation, deprecated within a version that stays active. Declared in
 * the lifecycle config as `parameterDeprecations`.
 *
 * @example
 * ```ts
 * const sort: ParameterDeprecationConfig = { version: 'v2', method: 'GET', path: '/users', parameter: 'order', deprecatedAt: '2026-09-01', sunsetAt: '2027-09-01', replacement: 'sort' };
 * ```
 */
export interface ParameterDeprecationConfig {
  version: string;
  method: string;
  /** Route template below the version prefix, e.g. `/users`. */
  path: string;
  parameter: string;
  deprecatedAt: InstantInput;
  sunsetAt: InstantInput;
  /** The query parameter of the same operation that takes its place. */
  replacement?: string;
  migrationUrl?: string;
}

/**
 * One deprecated element (a field or a query parameter), parsed: instants are epoch milliseconds,
 * and `element` is the name it is shown and counted under: `User.nickname` for a field,
 * `GET /users?order` for a parameter.
 *
 * @example
 * ```ts
 * const e: ElementDeprecation = { kind: 'field', version: 'v2', element: 'User.nickname', schema: 'User', field: 'nickname', deprecatedAt: 0, sunsetAt: 1 };
 * ```
 */
export type ElementDeprecation = FieldElement | ParameterElement;

interface ElementBase {
  version: string;
  element: string;
  deprecatedAt: number;
  sunsetAt: number;
  replacement?: string;
  migrationUrl?: string;
}

/** A deprecated field: see {@link ElementDeprecation}. */
export interface FieldElement extends ElementBase {
  kind: 'field';
  /** The schema that names the element. */
  schema: string;
  /** Every schema that carries the field, `schema` first. */
  schemas?: readonly string[];
  field: string;
}

/** A deprecated query parameter: see {@link ElementDeprecation}. */
export interface ParameterElement extends ElementBase {
  kind: 'parameter';
  method: string;
  path: string;
  parameter: string;
}

/** The name an element is shown and counted under. */
export function elementName(
  e:
    | { kind: 'field'; schema: string; field: string }
    | { kind: 'parameter'; method: string; path: string; parameter: string },
): string {
  return e.kind === 'field' ? `${e.schema}.${e.field}` : `${e.method.toUpperCase()} ${e.path}?${e.parameter}`;
}

/** The replacement's own name, as a client reads it: `User.displayName`, or `GET /users?sort`. */
export function replacementName(e: ElementDeprecation): string | undefined {
  if (e.replacement === undefined) return undefined;
  return e.kind === 'field'
    ? `${e.schema}.${e.replacement}`
    : elementName({ kind: 'parameter', method: e.method, path: e.path, parameter: e.replacement });
}
