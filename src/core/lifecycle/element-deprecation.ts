import type { Static } from '@sinclair/typebox';
import type { DeprecationDates, FieldDeprecationSchema, ParameterDeprecationSchema } from './lifecycle-schema.ts';

/** An entry of `fieldDeprecations` (the spec's safe deprecation of a field); see its schema. */
export type FieldDeprecationConfig = Static<typeof FieldDeprecationSchema>;

/** An entry of `parameterDeprecations`: `path` is the route template below the version prefix. */
export type ParameterDeprecationConfig = Static<typeof ParameterDeprecationSchema>;

/** A deprecated field or query parameter, parsed; `element` is its name (see {@link elementName}). */
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

/** The name an element is shown and counted under: `User.nickname`, `GET /users?order`. */
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
  return e.kind === 'field' ? `${e.schema}.${e.replacement}` : elementName({ ...e, parameter: e.replacement });
}
