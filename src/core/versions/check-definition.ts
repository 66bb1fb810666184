import { reachableSchemas } from './schema-walk.ts';
import type { HeadDefinition, SchemaMap } from './types.ts';
import { givesValue, retypeConversion } from './data-migrations.ts';
import type { ApiVersion } from './bundle-types.ts';
import type { Instruction } from './instructions.ts';

/**
 * The path templates a head may route: `/segments` (letters, digits, `-`, `_`, `.` and `~`, no
 * dot segment) and `{params}` named as any framework names them (`{userId}`, `{user_id}`).
 */
export const routablePath = /^(\/((?!\.{1,2}(?:\/|$))[A-Za-z0-9._~-]+|\{[A-Za-z_][A-Za-z0-9_]*\}))+$/;

/** Check the head's operations: unique ids, unique routes, well-formed path templates. */
export function checkHead(head: HeadDefinition): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const routes = new Set<string>();
  for (const op of head.operations) {
    if (ids.has(op.id)) problems.push(`operation id "${op.id}" is declared twice`);
    ids.add(op.id);
    const route = `${op.method} ${op.path}`;
    if (routes.has(route)) problems.push(`route ${route} is declared twice`);
    routes.add(route);
    if (!routablePath.test(op.path))
      problems.push(`operation ${op.id} has path "${op.path}"; use /segments and {params}`);
  }
  return problems;
}

/**
 * A change that reshapes a schema must say how bodies migrate, because data alone cannot: a
 * replaced or retyped schema in a response needs a response migration, and a removed or retyped
 * request field needs a request migration.
 */
export function checkMigrationCoverage(versions: ApiVersion[]): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  for (const [v, version] of versions.entries()) {
    if (v === 0) continue;
    const roots = bodyRoots(version);
    const inRequests = reachableSchemas({ schemas: version.schemas, roots: roots.requests });
    const inResponses = reachableSchemas({ schemas: version.schemas, roots: roots.responses });
    const requests = new Set(version.changes.flatMap((c) => Object.keys(c.requests ?? {})));
    const responses = new Set(version.changes.flatMap((c) => Object.keys(c.responses ?? {})));
    for (const name of [...requests, ...responses]) {
      if (!version.schemas[name])
        problems.push({
          detail: `${version.name}: a migration names schema "${name}", which the version does not define`,
          pointer: `/versions/${v}`,
        });
    }
    for (const { step, pointer } of locatedSteps(version, v)) {
      // Added fields and enum values need no migration of their own; checkProducible asks for the
      // enum mappings, and for what older responses need of a removed field. Renames, removed
      // fields given a value, and retypings that convert as data translate by themselves.
      if (!needsMigration(step, version)) continue;
      const needsResponse = step.op !== 'field-removed' && inResponses.has(step.schema);
      const needsRequest = inRequests.has(step.schema);
      const why =
        step.op === 'field-retyped'
          ? ` (${step.schema}.${step.field}'s types convert as data only between number or integer and string, or by "map")`
          : '';
      for (const [direction, needed, declared] of [
        ['response', needsResponse, responses],
        ['request', needsRequest, requests],
      ] as const)
        if (needed && !declared.has(step.schema))
          problems.push({
            detail: `${version.name}: ${step.op} on "${step.schema}" needs a ${direction} migration for it${why}`,
            pointer,
            needs: { direction, schema: step.schema },
          });
    }
  }
  return problems;
}

/** The schemas an operation's bodies are named by: its requests' and its responses'. */
export function bodyRoots(version: Pick<ApiVersion, 'operations'>): { requests: string[]; responses: string[] } {
  const named = (names: Array<string | undefined>) => names.filter((n): n is string => !!n);
  return {
    requests: named(version.operations.map((o) => o.body)),
    responses: named(version.operations.flatMap((o) => Object.values(o.responses).map((r) => r.schema))),
  };
}

/** Whether a step needs a migration function: what it changes, data alone cannot translate. */
function needsMigration(
  step: Instruction,
  version: ApiVersion,
): step is Extract<Instruction, { op: 'field-retyped' | 'field-removed' | 'schema-replaced' }> {
  if (step.op === 'field-retyped') {
    const props = version.schemas[step.schema]?.properties as SchemaMap | undefined;
    return retypeConversion(step, props?.[step.field]) === undefined;
  }
  // A removed field's value in requests is dropped on the way up; responses are checkProducible's.
  if (step.op === 'field-removed') return !givesValue(step);
  return step.op === 'schema-replaced';
}

/** A problem of a version definition, at a JSON pointer into it (`/versions/2/changes/0/instructions/1`). */
export interface DefinitionProblem {
  detail: string;
  pointer: string;
  /** The migration a step lacks, so that a later check does not ask for the same one in other words. */
  needs?: { direction: 'request' | 'response'; schema: string };
}

/** The pointer of instruction `instruction` of change `change` of version `version` (indexes). */
export function instructionPointer(version: number, change: number, instruction: number): string {
  return `/versions/${version}/changes/${change}/instructions/${instruction}`;
}

/** Each instruction of a version's changes, in order, with its pointer (`index` is the version's). */
export function locatedSteps(
  version: Pick<ApiVersion, 'changes'>,
  index: number,
): Array<{ step: Instruction; pointer: string }> {
  return version.changes.flatMap((change, c) =>
    change.instructions.map((step, s) => ({ step, pointer: instructionPointer(index, c, s) })),
  );
}

/**
 * The migrations both checks ask for, each asked once: a step that reshapes a schema without its
 * migration (`checkMigrationCoverage`) is often also a field nothing produces (`checkProducible`),
 * one mistake in two sentences. The one naming the field is kept, at the step's place.
 */
export function askedOnce(coverage: DefinitionProblem[], producible: DefinitionProblem[]): DefinitionProblem[] {
  const version = (pointer: string) => /^\/versions\/\d+/.exec(pointer)?.[0];
  const same = (a: DefinitionProblem, b: DefinitionProblem) =>
    a.needs !== undefined &&
    b.needs !== undefined &&
    a.needs.direction === b.needs.direction &&
    a.needs.schema === b.needs.schema &&
    version(a.pointer) === version(b.pointer);
  const kept = coverage.filter((c) => !producible.some((p) => same(c, p)));
  const placed = producible.map((p) => {
    const step = coverage.find((c) => same(c, p));
    return step ? { ...p, pointer: step.pointer } : p;
  });
  return [...kept, ...placed];
}
