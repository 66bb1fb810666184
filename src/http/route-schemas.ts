import type { ApiVersion, JsonSchema } from '../core/versions/index.ts';

const componentRef = '#/components/schemas/';

/** A self-contained schema: the named component with its version's components under `definitions`. */
export function toRouteSchema(options: { version: ApiVersion; name: string; forSerializer?: boolean }): JsonSchema {
  const { version, name, forSerializer = false } = options;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      // A partial response (`fields`) omits required members, so the serializer must not insist.
      if (forSerializer && key === 'required' && Array.isArray(child)) continue;
      out[key] =
        key === '$ref' && typeof child === 'string' && child.startsWith(componentRef)
          ? `#/definitions/${child.slice(componentRef.length)}`
          : rewrite(child);
    }
    return out;
  };
  const definitions = rewrite(version.schemas) as Record<string, JsonSchema>;
  return { ...(rewrite(version.schemas[name]) as JsonSchema), definitions };
}

/** Input fields the head accepts that this version does not know: a replace from it keeps them. */
export function hiddenInputFields(options: {
  head: ApiVersion;
  version: ApiVersion;
  name: string | undefined;
}): ReadonlySet<string> {
  if (!options.name) return new Set();
  const props = (v: ApiVersion) => Object.keys((v.schemas[options.name!]?.properties ?? {}) as object);
  const known = new Set(props(options.version));
  return new Set(props(options.head).filter((f) => !known.has(f)));
}

/** The hidden fields a request migration did not set (one it set, by a rename, is the client's). */
export function stillHidden(options: {
  hidden: ReadonlySet<string>;
  sent: unknown;
  body: unknown;
}): ReadonlySet<string> {
  const { hidden, sent, body } = options;
  if (hidden.size === 0 || !isRecord(body)) return hidden;
  const before = isRecord(sent) ? sent : {};
  const set = (field: string) =>
    Object.hasOwn(body, field) && (!Object.hasOwn(before, field) || before[field] !== body[field]);
  const left = [...hidden].filter((field) => !set(field));
  return left.length === hidden.size ? hidden : new Set(left);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
