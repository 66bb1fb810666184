import type { Clock } from '../../../core/clock/index.ts';
import type { DecisionTable } from '../../../core/rulebook/index.ts';
import { compileDecisionTable, type DecisionTableSources } from './compile.ts';

/** The decision table of a live lifecycle, compiled again only when what it is made of moves. */
export interface DecisionTables {
  /** The table for the state as it is now. */
  current(): Promise<DecisionTable>;
}

/**
 * Keep the compiled table until its inputs move: the lifecycle generation, the exemptions, the
 * brownouts, or a closing to new clients taking effect (`recompileAt`). Each new compilation
 * takes the next `generation`, so the number moves whenever the table may have.
 */
export function createDecisionTables(sources: DecisionTableSources, clock: Clock): DecisionTables {
  let compiled: { key: string; table: DecisionTable } | undefined;
  let generation = 0;
  let running: Promise<DecisionTable> | undefined;
  const compile = async (): Promise<DecisionTable> => {
    const exemptions = await sources.exemptions();
    const now = clock.now();
    const key = JSON.stringify([
      sources.runtime.generation(),
      exemptions.map((e) => [e.id, e.until]),
      sources.brownouts?.() ?? [],
    ]);
    const due = compiled?.table.recompileAt != null && now >= compiled.table.recompileAt;
    if (compiled && compiled.key === key && !due) return compiled.table;
    generation = Math.max(generation + 1, sources.runtime.generation());
    const table = await compileDecisionTable({ ...sources, exemptions: async () => exemptions }, { now, generation });
    compiled = { key, table };
    return table;
  };
  return {
    current() {
      // One compilation at a time: callers at once share it.
      running ??= compile().finally(() => (running = undefined));
      return running;
    },
  };
}
