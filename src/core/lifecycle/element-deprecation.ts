import type { Static } from '@sinclair/typebox';
import type { DeprecationDates, FieldDeprecationSchema, ParameterDeprecationSchema } from './lifecycle-schema.ts';

/**
 * A field deprecated within a version that stays active: the spec's "safe deprecation of a
 * field". Declared in the lifecycle config as `fieldDeprecations`. `resource` names the field
 * once: it reaches every schema of the version's document whose name is the resource's or starts
 * with it and a capital (`User`, `UserInput`, `UserPatch`, `UserDetail`, the `UserPartial` twin)
 * and that carries the field. Or `schema` names the schemas themselves: one (`User`), or the list
 * of those that carry the field (`['User', 'UserInput']`), the first naming it. `replacement` is
 * the property that takes its place.
 */
export type FieldDeprecationConfig = Static<typeof FieldDeprecationSchema>;

/**
 * A query parameter of one operation, deprecated within a version that stays active. Declared in
 * the lifecycle config as `parameterDeprecations`; `path` is the route template below the version
 * prefix, `replacement` the query parameter of the same operation that takes its place.
 */
export type ParameterDeprecationConfig = Static<typeof ParameterDeprecationSchema>;

/**
 * One deprecated element (a field or a query parameter), parsed: instants are epoch milliseconds,
 * and `element` is the name it is shown and counted under: `User.nickname` for a field,
 * `GET /users?order` for a parameter.
 */
export type ElementDeprecation = FieldElement | ParameterElement;

// The cap on extended access and the closing to new clients are the lifecycle schema's.
interface ElementBase extends DeprecationDates {
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
  /** The schema that names the element (the resource, when the field is named once). */
  schema: string;
  /** Every schema that carries the field, `schema` first (when named by its schemas). */
  schemas?: readonly string[];
  /** Named once: the resource whose schemas carrying the field it reaches (`fieldSchemas`). */
  resource?: string;
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
