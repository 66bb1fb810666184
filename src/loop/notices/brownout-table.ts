import type { Clock } from '../../core/clock/index.ts';
import { decisionTableFormat, type DecisionTable } from '../../core/rulebook/index.ts';
import { createProblemRegistry, type ProblemRegistry } from '../lifecycle/decision-table/problem-registry.ts';
import { brownoutRows } from '../lifecycle/decision-table/route-rows.ts';
import type { SubjectKey } from '../lifecycle/decision-table/subject-rows.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { Brownout } from '../../core/notices/index.ts';

/** The brownout rows of the decision table, live: what the brownout step decides each request from. */
export interface BrownoutTable {
  /** A table holding this operation's brownout rows, and the errors its problems were rendered from. */
  of(key: SubjectKey): { table: DecisionTable; registry: ProblemRegistry };
}

/**
 * Compile each operation's brownout rows on its first request and keep them until the brownouts,
 * the lifecycle or the grants of extended access move: the same rows the decision table serves.
 */
export function createBrownoutTable(options: {
  /** The brownouts in force (the brownout cache's). */
  brownouts: () => readonly Brownout[];
  runtime: LifecycleRuntime;
  clock: Clock;
  removedStatus: 410 | 404;
  prefix: string;
}): BrownoutTable {
  const { runtime } = options;
  let inputs: { all: unknown; generation: number; extendedAccess: number } | undefined;
  let registry = createProblemRegistry();
  let table = emptyTable(options.prefix, registry);
  const compiled = new Set<string>();
  return {
    of(key) {
      const all = options.brownouts();
      const generation = runtime.generation();
      const extendedAccess = runtime.exemptionsStamp();
      if (
        !inputs ||
        inputs.all !== all ||
        inputs.generation !== generation ||
        inputs.extendedAccess !== extendedAccess
      ) {
        inputs = { all, generation, extendedAccess };
        registry = createProblemRegistry();
        table = emptyTable(options.prefix, registry);
        compiled.clear();
      }
      const id = `${key.version} ${key.method} ${key.path}`;
      if (!compiled.has(id)) {
        compiled.add(id);
        const exempt = [...new Set([...runtime.exemptClients(key.version), ...runtime.exemptClients(id)])];
        const ctx = {
          runtime,
          registry,
          now: options.clock.now(),
          brownouts: all,
          removedStatus: options.removedStatus,
        };
        const row = {
          method: key.method,
          template: key.path,
          row: { segments: [{ from: 0, outcome: 'allow' as const, headers: {} }], deprecated: false },
          elements: [],
          brownouts: brownoutRows(ctx, key, exempt),
        };
        // A new table, not the old one changed: tables are immutable (`decide` indexes each once).
        table = { ...table, routes: { ...table.routes, [key.version]: [...(table.routes[key.version] ?? []), row] } };
      }
      return { table, registry };
    },
  };
}

function emptyTable(prefix: string, registry: ProblemRegistry): DecisionTable {
  return {
    format: decisionTableFormat,
    generation: 0,
    compiledAt: 0,
    recompileAt: null,
    prefix,
    vendor: '',
    versions: [],
    listHeaders: [],
    versionRows: {},
    routes: {},
    policies: { roles: {} },
    problems: registry.problems,
  };
}
