import { isPlainObject, refName } from './schema-walk.ts';

/** A document with its schemas (keys and every `$ref`) under the names a version published (`schema-renamed`). */
export function withPublishedNames<T extends Record<string, unknown>>(
  doc: T,
  names: Readonly<Record<string, string>> | undefined,
): T {
  if (!names || Object.keys(names).length === 0) return doc;
  const renamed = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(renamed);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const target = key === '$ref' ? refName(child) : undefined;
      out[key] =
        target !== undefined && Object.hasOwn(names, target) ? `#/components/schemas/${names[target]}` : renamed(child);
    }
    return out;
  };
  const out = renamed(doc) as T & { components?: { schemas?: Record<string, unknown> } };
  const schemas = out.components?.schemas;
  if (schemas)
    out.components!.schemas = Object.fromEntries(
      Object.entries(schemas).map(([name, schema]) => [Object.hasOwn(names, name) ? names[name] : name, schema]),
    );
  return out;
}
