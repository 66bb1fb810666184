import { chain, compileTransform, isPlainObject, type Transform } from './schema-walk.ts';
import type { ApiVersion, MigrationPlan } from './bundle-types.ts';
import type { MigrationContext, RequestMigrationContext } from './types.ts';
import { dataDown, dataUp, instructionsOn } from './data-migrations.ts';

/** One step between adjacent versions, compiled: the declared migrations, then the target's shape. */
interface Step {
  migrate: (name: string) => Transform;
  shape: (name: string) => Transform;
}

/**
 * Compile the migrations between adjacent versions. Each step runs in two phases, as Cadwyn's
 * converters do: the change's own migrations, bottom-up along the body's schema, so they see every
 * field of that version (a rename reads `customer` before anything drops it); then the target's
 * shape (fields it lacks dropped, enum values it lacks mapped).
 */
export function createMigrationPlan(versions: ApiVersion[]): MigrationPlan {
  // The call whose body is migrated, read by every migration the plan runs: set before each run,
  // and the transforms are synchronous, so no other call's context is ever seen. Made on the first
  // read: most steps (dropping a field, mapping a value) never read it.
  let current: RequestMigrationContext | undefined;
  let next: Parameters<typeof contextOf> | undefined;
  const context = () => {
    if (next !== undefined) {
      current = contextOf(...next);
      next = undefined;
    }
    return current!;
  };
  // down[i] takes a response from versions[i] to versions[i - 1]; up[i] a request the other way.
  // The change's own migrations see the body before its data instructions move it.
  const steps = (direction: 'responses' | 'requests') =>
    versions.map((version, i): Step | undefined => {
      if (i === 0) return undefined;
      const down = direction === 'responses';
      const [source, target] = down ? [version, versions[i - 1]!] : [versions[i - 1]!, version];
      const data = down ? dataDown : dataUp;
      return {
        migrate: compileTransform({
          schemas: source.schemas,
          own: (name) => chain(migrations(version, name, { direction, context }), data(version, name)),
        }),
        shape: compileTransform({ schemas: target.schemas, own: (name) => targetShape(version, name, down) }),
      };
    });
  const down = steps('responses');
  const up = steps('requests');
  const run = (step: Step, schema: string, body: unknown) => {
    const migrate = step.migrate(schema);
    const shape = step.shape(schema);
    const migrated = migrate ? migrate(body) : body;
    return shape ? shape(migrated) : migrated;
  };
  return {
    responseDown({ schema, body, from, to, operationId = '', context }) {
      next = [context, operationId, to];
      let value = body;
      for (let i = from.index; i > to.index; i--) value = run(down[i]!, schema, value);
      return value;
    },
    requestUp({ schema, body, from, to, operationId = '', context }) {
      next = [context, operationId, from];
      let value = body;
      for (let i = from.index + 1; i <= to.index; i++) value = run(up[i]!, schema, value);
      return value;
    },
  };
}

/** The context migrations get: the caller's, else one naming the operation alone (its route from the client's version). */
function contextOf(given: MigrationContext | undefined, id: string, client: ApiVersion): RequestMigrationContext {
  if (given) return { ...given, operationId: given.operation.id };
  const op = client.operations.find((o) => o.id === id);
  const operation = { id, method: op?.method ?? '', path: op?.path ?? '' };
  return { operationId: id, operation, params: {}, query: {}, headers: {} };
}

function migrations(
  version: ApiVersion,
  name: string,
  { direction, context }: { direction: 'requests' | 'responses'; context: () => RequestMigrationContext },
): Transform {
  const custom = version.changes.map((c) => c[direction]?.[name]).filter((f) => f !== undefined);
  if (custom.length === 0) return null;
  return (value) => custom.reduce((out, migrate) => migrate(out, context()), value);
}

/**
 * The shape of `name` a step arrives at: the older one without the fields `version` added, its added
 * enum values mapped down (`down`); else the newer one without the fields it removed, its removed
 * values mapped up.
 */
function targetShape(version: ApiVersion, name: string, down: boolean): Transform {
  const drop: string[] = [];
  const maps: EnumMap[] = [];
  for (const s of instructionsOn(version, name)) {
    if ((s.op === 'field-added' && down) || (s.op === 'field-removed' && !down)) drop.push(s.field);
    if (s.op === 'enum-values-added' && down && s.mapDownTo) maps.push({ field: s.field, map: s.mapDownTo });
    if (s.op === 'enum-values-removed' && !down && s.mapUpTo) maps.push({ field: s.field, map: s.mapUpTo });
  }
  return reshape(drop, maps);
}

/** Each enum mapping, by its field; one without a field maps the schema's own values (an enum component). */
type EnumMap = { field: string | undefined; map: Record<string, string> };

function reshape(drop: string[], maps: EnumMap[]): Transform {
  if (drop.length === 0 && maps.length === 0) return null;
  const dropped = new Set(drop);
  const own = maps.filter((m) => m.field === undefined).map((m) => m.map);
  return (value) => {
    if (typeof value === 'string') return own.reduce((v, map) => (Object.hasOwn(map, v) ? map[v]! : v), value);
    if (!isPlainObject(value)) return value;
    // Copy without the dropped keys rather than `delete` them: deleting turns the object into a
    // slow dictionary, which the serializer then pays for on every property.
    const copy: Record<string, unknown> = {};
    for (const key in value) if (!dropped.has(key)) copy[key] = value[key];
    for (const { field, map } of maps) {
      if (field === undefined) continue;
      const current = copy[field];
      if (typeof current === 'string' && Object.hasOwn(map, current)) copy[field] = map[current];
    }
    return copy;
  };
}
