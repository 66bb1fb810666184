import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { compileTransform, isPlainObject } from './schema-walk.ts';
import type { ApiVersion } from './bundle-types.ts';
import type { OperationSpec } from './types.ts';

/** Projects a response body to the requested fields. */
export type FieldProjection = (body: unknown) => unknown;

const cacheLimit = 256;

/**
 * Build the partial-response projector for one version: `select(operation, 'id,name')` checks the
 * names against the version's own schema (an unknown name is `UNKNOWN_FIELD`) and returns a
 * projection that keeps only those fields of every object of the operation's `partial` schema.
 * Projections are compiled once per distinct selection and cached.
 */
export function createFieldSelector(
  version: ApiVersion,
): (operation: OperationSpec, fields: string | undefined) => FieldProjection | undefined {
  const cache = new Map<string, FieldProjection>();
  return (operation, fields) => {
    if (fields === undefined) return undefined;
    const target = operation.partial;
    const root = operation.responses[200]?.schema ?? operation.responses[201]?.schema;
    if (!target || !root) {
      throw new VersionaryError({
        code: ErrorCode.UnknownField,
        detail: `${operation.method} ${operation.path} does not support the fields parameter.`,
      });
    }
    const key = `${operation.id}\u0000${fields}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const names = parseFields({ fields, version, target });
    const keep = new Set(names);
    const pick = (value: unknown): unknown => {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const name of keep) if (Object.hasOwn(value, name)) out[name] = value[name];
      return out;
    };
    const transform =
      compileTransform({ schemas: version.schemas, own: (n) => (n === target ? pick : null) })(root) ?? ((b) => b);
    if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
    cache.set(key, transform);
    return transform;
  };
}

function parseFields(options: { fields: string; version: ApiVersion; target: string }): string[] {
  const { fields, version, target } = options;
  const known = Object.keys((version.schemas[target]?.properties ?? {}) as object);
  const names = fields.split(',').map((f) => f.trim());
  const unknown = names.filter((n) => !known.includes(n));
  if (names.length === 0 || unknown.length > 0) {
    const shown = unknown.map((n) => (n === '' ? '(empty name)' : `"${n}"`)).join(', ');
    throw new VersionaryError({
      code: ErrorCode.UnknownField,
      detail: `fields names ${shown}, which the ${version.name} representation does not have. Known fields: ${known.join(', ')}.`,
      errors: unknown.map((n) => ({ pointer: '/query/fields', detail: `unknown field "${n}"` })),
      extensions: { knownFields: known },
    });
  }
  return names;
}
