import type { ApiVersion } from './bundle-types.ts';
import type { Instruction } from './instructions.ts';

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
