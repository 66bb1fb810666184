import { reachableSchemas } from '../versions/schema-walk.ts';
import { partialTwinName, partialTwins, type TwinOperation } from '../versions/partial-twins.ts';
import type { FieldElement } from './element-deprecation.ts';

type Schemas = Readonly<Record<string, Record<string, unknown>>>;

/** What the element checks need of a version: its schemas and the query schema of each operation. */
export interface ElementVersionShape {
  name: string;
  schemas: Schemas;
  operations: ReadonlyArray<TwinOperation & { method: string; path: string; query?: Record<string, unknown> }>;
}

/** Every schema a version's document shows, `fields` twins included, so a deprecation may name any. */
export function servedSchemas(version: Pick<ElementVersionShape, 'schemas' | 'operations'>): Schemas {
  const served: Record<string, Record<string, unknown>> = { ...version.schemas };
  for (const [twin, source] of partialTwins(version.operations)) {
    if (version.schemas[source] && !(twin in served)) served[twin] = version.schemas[source];
  }
  return served;
}

/**
 * Whether schema `name` is one of `resource`'s: the resource's own name, or that name followed
 * by a capitalised word (`User` owns `UserInput`, `UserDetail`, `UserPartial`, not `Username`).
 * @internal exported for the tests
 */
export function ofResource(name: string, resource: string): boolean {
  return name === resource || (name.startsWith(resource) && /^[A-Z]/.test(name.slice(resource.length)));
}

/** The served schemas a field deprecation reaches: the resource's that carry the field, or those named with their twins. */
export function fieldSchemas(e: FieldElement, served: Schemas): string[] {
  if (e.resource !== undefined) {
    const resource = e.resource;
    return Object.keys(served).filter((n) => ofResource(n, resource) && propertiesOf(served[n]!).includes(e.field));
  }
  const named = e.schemas ?? [e.schema];
  const twins = named.map(partialTwinName).filter((n) => n in served && !named.includes(n));
  return [...named, ...twins];
}

/** The top-level member names of a schema. */
export function propertiesOf(schema: Record<string, unknown>): string[] {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

/** The schemas an operation's success bodies reach: what `fields=` may name without a `partial` (a gateway's upstream). */
export function successSchemas(schemas: Schemas, operation: TwinOperation): string[] {
  const roots = Object.entries(operation.responses ?? {}).flatMap(([status, spec]) =>
    Number(status) < 400 && spec?.schema !== undefined ? [spec.schema] : [],
  );
  return [...reachableSchemas({ schemas, roots })].filter((name) => schemas[name]);
}
