import type { LifecycleSource } from '../../../core/lifecycle/index.ts';
import type { Brownout } from '../../../core/notices/index.ts';
import type { ServiceContext } from '../../host/feature.ts';
import { allowedPastClosing } from './allowed-past.ts';
import { tableClientElements, tableClientVerdict } from './client-verdict.ts';
import { createDecisionTables, type DecisionTables } from './tables.ts';

// One table per app (per lifecycle runtime): the management API serves the one the lifecycle step
// decides from and nginx is pushed. Each part has a context of its own, and the notices part's
// brownouts reach only the parts after it: the latest context that has them hands them over.
const byRuntime = new WeakMap<ServiceContext['runtime'], Entry>();

/** The app's decision table, compiled from its live lifecycle, usage and brownouts. */
export function decisionTablesOf(context: ServiceContext): DecisionTables {
  const entry = byRuntime.get(context.runtime) ?? createEntry(context);
  if (context.brownouts) entry.brownouts = context.brownouts;
  return entry.tables;
}

interface Entry {
  tables: DecisionTables;
  /** The notices part's brownouts, from the latest context that has them; read at each compilation. */
  brownouts?: () => Brownout[];
}

function createEntry(context: ServiceContext): Entry {
  const { runtime, bundle, api, storage, recorder, config, clock } = context;
  const entry: Entry = {
    tables: createDecisionTables(
      {
        runtime,
        bundle,
        prefix: api.prefix,
        vendor: api.vendor,
        removedStatus: config.settings.lifecycle.removedStatus,
        exemptions: () => storage.extendedAccess.list(),
        brownouts: () => entry.brownouts?.() ?? [],
        allowed: allowedPastClosing({ usage: storage.usage, flush: () => recorder.flush() }),
        rateLimit: config.settings.rateLimit,
        // A gateway's versions that forward what their document does not declare.
        forwardUndocumented: (config.settings.gateway?.versions ?? [])
          .filter((v) => 'upstream' in v && v.forwardUndocumented)
          .map((v) => v.name),
      },
      clock,
    ),
  };
  byRuntime.set(runtime, entry);
  return entry;
}

/**
 * The lifecycle the versioned API's steps read: the runtime's shared verdicts, and the per-client
 * rules decided on the app's decision table (`tableClientVerdict`, `tableClientElements`).
 */
export function tableLifecycleOf(context: ServiceContext): LifecycleSource {
  const tables = decisionTablesOf(context);
  const perClient = {
    clientVerdict: tableClientVerdict(tables, context.clock),
    clientElements: tableClientElements(tables, context.clock),
  };
  // The runtime's every other answer, as it is: only the per-client rules are the table's.
  return Object.assign(Object.create(context.runtime) as LifecycleSource, perClient);
}
