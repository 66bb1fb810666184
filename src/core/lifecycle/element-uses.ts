import type { ElementDeprecation } from './element-deprecation.ts';

/** What a request carries that can use a deprecated element: its parsed body and query. */
export interface ElementUseInput {
  body: unknown;
  query: Readonly<Record<string, unknown>>;
}

/** The deprecated elements one request uses, in declaration order (empty when none). */
export type ElementUseCheck = (input: ElementUseInput) => ElementDeprecation[];

/**
 * Compile, once per operation of a version, the check of which deprecated elements a request
 * uses: a field sent at the top level of a body whose schema carries it, a field named in
 * `fields=` when the operation projects that schema, or a deprecated query parameter sent.
 * Whether a client *reads* a response field cannot be known, so reading is not a use.
 * `undefined` when the operation has no deprecated element: such routes pay nothing.
 *
 * @example
 * ```ts
 * const check = compileElementUses({ version: 'v2', operation, elements });
 * const used = check?.({ body: request.body, query }) ?? [];
 * ```
 */
export function compileElementUses(options: {
  version: string;
  operation: { method: string; path: string; body?: string; partial?: string };
  elements: readonly ElementDeprecation[];
}): ElementUseCheck | undefined {
  const { operation } = options;
  const mine = options.elements.filter((e) => e.version === options.version);
  const inBody: Array<[ElementDeprecation, string]> = [];
  const inFields: Array<[ElementDeprecation, string]> = [];
  const inQuery: Array<[ElementDeprecation, string]> = [];
  for (const e of mine) {
    if (e.kind === 'parameter') {
      if (e.method === operation.method && e.path === operation.path) inQuery.push([e, e.parameter]);
      continue;
    }
    const schemas = e.schemas ?? [e.schema];
    if (operation.body !== undefined && schemas.includes(operation.body)) inBody.push([e, e.field]);
    if (operation.partial !== undefined && schemas.includes(operation.partial)) inFields.push([e, e.field]);
  }
  if (inBody.length + inFields.length + inQuery.length === 0) return undefined;
  return ({ body, query }) => {
    const used = new Set<ElementDeprecation>();
    if (inBody.length > 0 && typeof body === 'object' && body !== null && !Array.isArray(body)) {
      for (const [e, field] of inBody) if (Object.hasOwn(body, field)) used.add(e);
    }
    const fields = query.fields;
    if (inFields.length > 0 && typeof fields === 'string') {
      const names = new Set(fields.split(',').map((f) => f.trim()));
      for (const [e, field] of inFields) if (names.has(field)) used.add(e);
    }
    for (const [e, parameter] of inQuery) if (query[parameter] !== undefined) used.add(e);
    return [...used];
  };
}
