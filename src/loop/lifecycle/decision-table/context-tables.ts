import type { LifecycleSource } from '../../../core/lifecycle/index.ts';
import type { ServiceContext } from '../../host/feature.ts';
import { allowedPastClosing } from './allowed-past.ts';
import { tableClientElements, tableClientVerdict } from './client-verdict.ts';
import { createDecisionTables, type DecisionTables } from './tables.ts';

// One table per app: the management API serves the one the lifecycle step decides from.
const byContext = new WeakMap<ServiceContext, DecisionTables>();

/** The app's decision table, compiled from its live lifecycle, usage and brownouts. */
export function decisionTablesOf(context: ServiceContext): DecisionTables {
  let tables = byContext.get(context);
  if (tables) return tables;
  const { runtime, bundle, api, storage, recorder, config, clock } = context;
  tables = createDecisionTables(
    {
      runtime,
      bundle,
      prefix: api.prefix,
      vendor: api.vendor,
      removedStatus: config.settings.lifecycle.removedStatus,
      exemptions: () => storage.extendedAccess.list(),
      // Read when a table is compiled: the notices part sets them once it is installed.
      brownouts: () => context.brownouts?.() ?? [],
      allowed: allowedPastClosing({ usage: storage.usage, flush: () => recorder.flush() }),
      rateLimit: config.settings.rateLimit,
    },
    clock,
  );
  byContext.set(context, tables);
  return tables;
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
