import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { compileTransform, isPlainObject } from './schema-walk.ts';
import type { ApiVersion } from './bundle-types.ts';
import type { JsonSchema, OperationSpec } from './types.ts';

type FieldProjection = (body: unknown) => unknown;

/** A sparse fieldset (`fields=id,name`) of one operation, parsed and compiled once. */
export interface FieldSelection {
  /** The names kept, as the client's version spells them. */
  readonly keep: ReadonlySet<string>;
  /** The partial schema whose objects keep only those names (`User`). */
  readonly target: string;
  /** The response schema the projection walks from: the operation's 200 (or 201) body. */
  readonly root: string;
  /** Keeps only the selected members of every `target` object in a body of the `root` schema. */
  readonly project: FieldProjection;
  /**
   * Like `project`, and also names a kept member that `target` requires but a projected object
   * lacks: the part of the schema's `required` that a partial response still owes.
   */
  projectChecked(body: unknown): { body: unknown; missing: string | undefined };
}

const cacheLimit = 256;

/**
 * The schema an object of a sparse fieldset answers to: the same members, none of them required.
 * The documents' `<Name>Partial` twin and the check of a partial response both start from it.
 */
export function withoutRequired(schema: JsonSchema): JsonSchema {
  const { required: _required, ...rest } = schema;
  return rest;
}

/**
 * The partial-response selector of one version: `select(operation, 'id,name')` checks the names
 * (`UNKNOWN_FIELD`) and projects every object of the `partial` schema; compiled once per fieldset.
 */
export function createFieldSelector(
  version: ApiVersion,
): (operation: OperationSpec, fields: string | undefined) => FieldSelection | undefined {
  const cache = new Map<string, FieldSelection>();
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
    const required = new Set(((version.schemas[target]?.required ?? []) as string[]).filter((n) => keep.has(n)));
    // Set by `pick` during one synchronous walk, read right after it.
    let missing: string | undefined;
    const pick = (value: unknown): unknown => {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const name of keep) {
        // An undefined member is left out, as JSON leaves it out: a required one is owed.
        const member = Object.hasOwn(value, name) ? value[name] : undefined;
        if (member !== undefined) out[name] = member;
        else if (missing === undefined && required.has(name)) missing = name;
      }
      return out;
    };
    const project =
      compileTransform({ schemas: version.schemas, own: (n) => (n === target ? pick : null) })(root) ?? ((b) => b);
    const selection: FieldSelection = {
      keep,
      target,
      root,
      project,
      projectChecked(body) {
        missing = undefined;
        const projected = project(body);
        return { body: projected, missing };
      },
    };
    if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
    cache.set(key, selection);
    return selection;
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
