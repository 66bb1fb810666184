import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { deriveOlder } from './derive-older.ts';
import { undoOrder } from './derive-endpoints.ts';
import {
  checkHead,
  checkMigrationCoverage,
  askedOnce,
  instructionPointer,
  type DefinitionProblem,
} from './check-definition.ts';
import { checkProducible } from './check-producible.ts';
import { createMigrationPlan } from './migration-plan.ts';
import { toBundle, versionNamePattern as namePattern, type ApiVersion, type VersionBundle } from './bundle-types.ts';
import type { VersionChange } from './version-change.ts';
import type { HeadDefinition, OperationSpec, SchemaMap } from './types.ts';
import { refName } from './schema-walk.ts';

/** One published version. The first version has no changes; each later one lists what it changed. */
export interface VersionDeclaration {
  name: string;
  changes?: VersionChange[];
}

/** What {@link defineVersions} takes: the head (the newest representation) and every version, oldest first. */
export interface DefineVersionsOptions<H extends HeadDefinition = HeadDefinition> {
  head: H;
  /** Oldest first. The last one is the head: handlers speak its representation. */
  versions: VersionDeclaration[];
}

/**
 * Validate the version declarations and derive every older version from the head by undoing each
 * version's changes. Every problem is reported at once, as one `INVALID_DEFINITION` error, so a
 * bad definition fails at start and never on a request.
 *
 * @example
 * ```ts
 * const bundle = defineVersions({ head, versions: [{ name: 'v1' }, { name: 'v2', changes: [addEmail] }] });
 * bundle.get('v1')?.schemas.User;
 * ```
 */
export function defineVersions<const H extends HeadDefinition>(options: DefineVersionsOptions<H>): VersionBundle<H> {
  const at = (pointer: string) => (detail: string) => ({ detail, pointer });
  const problems: DefinitionProblem[] = [...checkHead(options.head), ...checkDeclarations(options.versions)].map(
    at('/versions'),
  );
  const derived: ApiVersion[] = [];
  let schemas = structuredClone(options.head.schemas);
  let operations = [...options.head.operations];
  // Schemas keep the head's names throughout; a version's documents show its own (`schema-renamed`).
  let names: Record<string, string> = {};
  for (let i = options.versions.length - 1; i >= 0; i--) {
    const declaration = options.versions[i]!;
    const changes = (declaration.changes ?? []).map((change) => inHeadNames(change, names));
    const number = Number(namePattern.exec(declaration.name)?.[1] ?? 0);
    const own = Object.keys(names).length > 0 ? { names } : {};
    derived.unshift({ name: declaration.name, number, index: i, schemas, operations, changes, ...own });
    problems.push(...checkReferences(declaration.name, schemas, operations).map(at(`/versions/${i}`)));
    // One instruction at a time, so each problem names its instruction; endpoint instructions name the
    // newer version's routes, so they are undone in the order that keeps those in place (`undoOrder`).
    const steps = changes.flatMap((change, c) => change.instructions.map((step, s) => ({ step, c, s })));
    for (const { step, c, s } of steps.sort((a, b) => undoOrder(a.step) - undoOrder(b.step))) {
      const older = deriveOlder({ version: declaration.name, schemas, operations, instructions: [step], names });
      problems.push(...older.problems.map(at(instructionPointer(i, c, s))));
      schemas = older.schemas;
      operations = older.operations;
      names = older.names;
    }
  }
  derived.forEach((v, i) => (v.index = i));
  problems.push(...askedOnce(checkMigrationCoverage(derived), checkProducible(derived)));
  if (problems.length > 0) {
    throw new VersionaryError({
      code: ErrorCode.InvalidDefinition,
      detail: `The version definition has ${problems.length} problem(s): ${problems.map((p) => p.detail).join('; ')}`,
      errors: problems.map(({ detail, pointer }) => ({ pointer, detail })),
    });
  }
  return toBundle(options.head, derived, createMigrationPlan(derived));
}

/**
 * A change written in its version's schema names, in the head's: after a `schema-renamed` in a
 * newer version, an older change names the schema by the name its own version published.
 */
function inHeadNames(change: VersionChange, names: Record<string, string>): VersionChange {
  const own = new Map(Object.entries(names).map(([head, published]) => [published, head]));
  if (own.size === 0) return change;
  const name = (n: string) => own.get(n) ?? n;
  const keyed = <T>(map: Record<string, T> | undefined) =>
    map && Object.fromEntries(Object.entries(map).map(([key, value]) => [name(key), value]));
  const instructions = change.instructions.map((step) =>
    'schema' in step ? { ...step, schema: name(step.schema) } : step,
  );
  return { ...change, instructions, requests: keyed(change.requests), responses: keyed(change.responses) };
}

function checkDeclarations(versions: VersionDeclaration[]): string[] {
  const problems: string[] = [];
  if (versions.length === 0) problems.push('at least one version is needed');
  let last = 0;
  versions.forEach((v, i) => {
    const match = namePattern.exec(v.name);
    if (!match) return void problems.push(`version name "${v.name}" must look like v1, v2, ...`);
    const number = Number(match[1]);
    if (number <= last)
      problems.push(`${v.name} must come after v${last}: versions are listed oldest first, without repeats`);
    last = number;
    const count = v.changes?.length ?? 0;
    if (i === 0 && count > 0) problems.push(`${v.name} is the oldest version and cannot declare changes`);
    if (i > 0 && count === 0) problems.push(`${v.name} declares no change from the version before it`);
    for (const change of v.changes ?? []) {
      if (!change.description?.trim()) problems.push(`${v.name} has a change without a description`);
    }
  });
  return problems;
}

/** List every dangling `$ref` and every operation schema name that a version does not define. */
function checkReferences(version: string, schemas: SchemaMap, operations: OperationSpec[]): string[] {
  const problems: string[] = [];
  const visit = (value: unknown, where: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${where}/${i}`));
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref') {
        const name = refName(child);
        if (name === undefined || !schemas[name])
          problems.push(`${version}: ${where} refers to ${String(child)}, which is not defined`);
      } else visit(child, `${where}/${key}`);
    }
  };
  for (const [name, schema] of Object.entries(schemas)) visit(schema, `#/components/schemas/${name}`);
  for (const op of operations) {
    const names = [op.body, op.partial, ...Object.values(op.responses).map((r) => r.schema)];
    for (const name of names) {
      if (name !== undefined && !schemas[name])
        problems.push(`${version}: operation ${op.id} uses schema "${name}", which is not defined`);
    }
  }
  return problems;
}
