import { isPlainObject, refName } from './schema-walk.ts';

/**
 * An OpenAPI document with its component schemas under the names a version published
 * (`schema-renamed`): each renamed key, and every `$ref` to it anywhere in the document. The
 * document is returned as it is when nothing was renamed.
 */
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
