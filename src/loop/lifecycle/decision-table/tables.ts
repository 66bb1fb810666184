import type { Clock } from '../../../core/clock/index.ts';
import type { VersionaryError } from '../../../core/errors/index.ts';
import type { DecisionTable, DecisionTableSource } from '../../../core/rulebook/index.ts';
import { compileDecisionTable, type DecisionTableSources } from './compile.ts';
import { createProblemRegistry } from './problem-registry.ts';
import type { Brownout } from '../../../core/notices/index.ts';

export type DecisionTables = DecisionTableSource;

/**
 * Keep the compiled table until its inputs move (lifecycle, grants, brownouts, minimum versions, a
 * closing: `recompileAt`); whether it is current is found without I/O, so a request may ask.
 */
export function createDecisionTables(sources: DecisionTableSources, clock: Clock): DecisionTables {
  let compiled: { key: ReturnType<typeof keyNow>; table: DecisionTable } | undefined;
  let generation = 0;
  let running: Promise<DecisionTable> | undefined;
  // Shared by every compilation's registry: an error is found from a problem of any table handed out.
  const errors = new WeakMap<object, VersionaryError>();
  // The brownouts' text, worked out again only when the list handed over is another array.
  let brownouts: { list: unknown; text: string } | undefined;
  const brownoutsText = (): string => {
    const list = sources.brownouts?.() ?? noBrownouts;
    if (brownouts?.list !== list) brownouts = { list, text: JSON.stringify(list) };
    return brownouts.text;
  };
  const keyNow = () => ({
    generation: sources.runtime.generation(),
    grants: sources.runtime.grantsStamp(),
    brownouts: brownoutsText(),
    minimumVersions: sources.minimumVersions?.stamp() ?? 0,
    access: sources.access?.(),
  });
  // Asked on every request: compared in place, without building a key.
  const fresh = (): DecisionTable | undefined => {
    if (compiled === undefined) return undefined;
    const { key } = compiled;
    if (key.generation !== sources.runtime.generation() || key.grants !== sources.runtime.grantsStamp())
      return undefined;
    if (key.minimumVersions !== (sources.minimumVersions?.stamp() ?? 0)) return undefined;
    // The access part hands its refusals over once, at its registration: a table compiled before is stale.
    if (key.access !== sources.access?.()) return undefined;
    // The same text object as the key's while the list is the same array: compared at once.
    if (key.brownouts !== brownoutsText()) return undefined;
    const { recompileAt, compiledAt } = compiled.table;
    const now = clock.now();
    // A clock set back before the compilation (a test's) cannot trust sets fixed at a later instant.
    if (now < compiledAt) return undefined;
    return recompileAt !== null && now >= recompileAt ? undefined : compiled.table;
  };
  const compile = async (): Promise<DecisionTable> => {
    const key = keyNow();
    const now = clock.now();
    generation = Math.max(generation + 1, sources.runtime.generation());
    const registry = createProblemRegistry(errors);
    const table = await compileDecisionTable(sources, { now, generation, registry });
    compiled = { key, table };
    return table;
  };
  const current = (): Promise<DecisionTable> => {
    const table = fresh();
    if (table) return Promise.resolve(table);
    // One compilation at a time: callers at once share it.
    running ??= compile().finally(() => (running = undefined));
    return running;
  };
  return {
    latest() {
      const table = fresh();
      // State moved and nothing compiled it yet: compiled now; meanwhile the rulebook step waits for it (`current`).
      if (table === undefined) current().catch(() => undefined);
      return table;
    },
    current,
    errorOf: (problem) => errors.get(problem.body),
  };
}

const noBrownouts: readonly Brownout[] = Object.freeze([]);
