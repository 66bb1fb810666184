import { safeDecode } from '../compat/json-pointer.ts';
import type { ElementDeprecation, FieldElement } from './element-deprecation.ts';

/** A request's parsed body and query (a repeated name's value is a list). */
interface ElementUseInput {
  body: unknown;
  query: Readonly<Record<string, unknown>>;
}

/** The deprecated elements one request uses, in declaration order (empty when none). */
export type ElementUseCheck = (input: ElementUseInput) => ElementDeprecation[];

/**
 * Which deprecated elements a request to one operation uses: a top-level body field, a field named
 * in `fields=`, or a query parameter sent. Reading a response field cannot be seen, so it is not a
 * use. `undefined` when the operation has no deprecated element: such routes pay nothing.
 */
export function compileElementUses(options: {
  version: string;
  operation: { method: string; path: string; body?: string; partial?: string };
  elements: readonly ElementDeprecation[];
  /** The schemas each field deprecation reaches in this version (`fieldSchemas`); by default those it names. */
  reach?: (e: FieldElement) => readonly string[];
  /** The schemas whose members `fields=` names here; by default the operation's `partial`. */
  selects?: readonly string[];
  /** Query names as {@link looseQuery} gives them: compare in lower case. */
  looseNames?: boolean;
}): ElementUseCheck | undefined {
  const { operation } = options;
  const reach = options.reach ?? ((e: FieldElement) => e.schemas ?? [e.schema]);
  const selects = options.selects ?? (operation.partial !== undefined ? [operation.partial] : []);
  const name = options.looseNames === true ? (n: string) => n.toLowerCase() : (n: string) => n;
  const mine = options.elements.filter((e) => e.version === options.version);
  const inBody: Array<[ElementDeprecation, string]> = [];
  const inFields: Array<[ElementDeprecation, string]> = [];
  const inQuery: Array<[ElementDeprecation, string]> = [];
  for (const e of mine) {
    if (e.kind === 'parameter') {
      if (e.method === operation.method && e.path === operation.path) inQuery.push([e, name(e.parameter)]);
      continue;
    }
    const schemas = reach(e);
    if (operation.body !== undefined && schemas.includes(operation.body)) inBody.push([e, e.field]);
    // A schema's `fields` twin documents the same members: naming either covers `fields=`.
    if (selects.some((s) => schemas.includes(s) || schemas.includes(`${s}Partial`))) inFields.push([e, e.field]);
  }
  if (inBody.length + inFields.length + inQuery.length === 0) return undefined;
  const fieldsName = name('fields');
  return ({ body, query }) => {
    const used = new Set<ElementDeprecation>();
    if (inBody.length > 0 && typeof body === 'object' && body !== null && !Array.isArray(body)) {
      for (const [e, field] of inBody) if (Object.hasOwn(body, field)) used.add(e);
    }
    const fields = query[fieldsName];
    if (inFields.length > 0 && fields !== undefined) {
      const names = new Set(
        [fields]
          .flat()
          .filter((v): v is string => typeof v === 'string')
          .flatMap((v) => v.split(','))
          .map((f) => f.trim()),
      );
      for (const [e, field] of inFields) if (names.has(field)) used.add(e);
    }
    for (const [e, parameter] of inQuery) if (query[parameter] !== undefined) used.add(e);
    return [...used];
  };
}

/**
 * A request's query as any upstream might read it (the gateway cannot know which parser is behind
 * it): split at `&` and `;`, names decoded, lower-cased and cut at `[` (`order[0]` is `order`).
 */
export function looseQuery(target: string): Record<string, string[]> {
  const start = target.indexOf('?');
  // No prototype: a name such as `__proto__` or `constructor` is a name like any other.
  const query = Object.create(null) as Record<string, string[]>;
  if (start < 0) return query;
  const end = target.indexOf('#', start);
  for (const pair of target.slice(start + 1, end < 0 ? undefined : end).split(/[&;]/)) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    const name = decoded(rawName).split('[')[0]!.toLowerCase();
    const value = equals < 0 ? '' : decoded(pair.slice(equals + 1));
    (query[name] ??= []).push(value);
  }
  return query;
}

function decoded(text: string): string {
  return safeDecode(text.replace(/\+/g, ' '));
}
