import { compileTransform, isPlainObject, type Transform } from './schema-walk.ts';
import type { ApiVersion } from './define-versions.ts';

/** Options for migrating one body between two versions. */
export interface MigrateOptions {
  /** Component schema name of the body. */
  schema: string;
  body: unknown;
  /** Version the body is in. */
  from: ApiVersion;
  /** Version the body must end in. */
  to: ApiVersion;
  operationId?: string;
}

/** Migrations compiled once from the declared changes. */
export interface MigrationPlan {
  /** Newer → older, step by step, bottom-up along the schema. */
  responseDown(options: MigrateOptions): unknown;
  /** Older → newer, step by step, at the body's top level. */
  requestUp(options: MigrateOptions): unknown;
}

/**
 * Compile response and request migrations for every step between adjacent versions.
 *
 * @example
 * ```ts
 * const plan = createMigrationPlan(bundle.versions);
 * plan.responseDown({ schema: 'User', body, from: v2, to: v1 });
 * ```
 */
export function createMigrationPlan(versions: ApiVersion[]): MigrationPlan {
  // down[i] migrates a body from versions[i] to versions[i - 1].
  const down = versions.map((version) => compileTransform({ schemas: version.schemas, own: (name) => ownDown(version, name) }));
  return {
    responseDown({ schema, body, from, to }) {
      let value = body;
      for (let i = from.index; i > to.index; i--) {
        const t = down[i]!(schema);
        if (t) value = t(value);
      }
      return value;
    },
    requestUp({ schema, body, from, to, operationId = '' }) {
      let value = body;
      for (let i = from.index + 1; i <= to.index; i++) {
        for (const change of versions[i]!.changes) {
          const migrate = change.requests?.[schema];
          if (migrate) value = migrate(value, { operationId });
        }
      }
      return value;
    },
  };
}

function ownDown(version: ApiVersion, name: string): Transform {
  const steps = version.changes.flatMap((c) => c.instructions);
  const drop = steps.flatMap((s) => (s.op === 'field-added' && s.schema === name ? [s.field] : []));
  const maps = steps.flatMap((s) => (s.op === 'enum-values-added' && s.schema === name && s.mapDownTo ? [{ field: s.field, map: s.mapDownTo }] : []));
  const custom = version.changes.map((c) => c.responses?.[name]).filter((f) => f !== undefined);
  if (drop.length === 0 && maps.length === 0 && custom.length === 0) return null;
  const dropped = new Set(drop);
  return (value) => {
    let out: unknown = value;
    if (isPlainObject(out) && (drop.length > 0 || maps.length > 0)) {
      // Copy without the dropped keys rather than `delete` them: deleting turns the object into a
      // slow dictionary, which the serializer then pays for on every property.
      const copy: Record<string, unknown> = {};
      for (const key in out) if (!dropped.has(key)) copy[key] = out[key];
      for (const { field, map } of maps) {
        const current = copy[field];
        if (typeof current === 'string' && Object.hasOwn(map, current)) copy[field] = map[current];
      }
      out = copy;
    }
    for (const migrate of custom) out = migrate(out);
    return out;
  };
}
