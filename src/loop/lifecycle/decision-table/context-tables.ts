import type { Clock } from '../../../core/clock/index.ts';
import type { VersionaryError } from '../../../core/errors/index.ts';
import type { LifecycleSource } from '../../../core/lifecycle/index.ts';
import type { Brownout } from '../../../core/notices/index.ts';
import type { DecisionTable, DecisionTableSource } from '../../../core/rulebook/index.ts';
import { tableClientElements } from './client-verdict.ts';
import { compileDecisionTable, type AccessRefusals, type DecisionTableSources } from './compile.ts';
import { createProblemRegistry } from './problem-registry.ts';
import { gatewaySection } from '../../host/config.ts';
import { lifecycleSection } from '../settings.ts';
import type { LifecycleContext } from '../context.ts';
import type { UsageStore } from '../../../kernel/ports/index.ts';
import { ChangeTopic } from '../../../kernel/change-feed/publishing-storage.ts';

// One table per app (per runtime); the notices part's brownouts come from the latest context that has them.
const byRuntime = new WeakMap<LifecycleContext['runtime'], Entry>();

export function decisionTablesOf(context: LifecycleContext): DecisionTableSource {
  return entryOf(context).tables;
}

/** The access part, registered after this one, hands over what it refuses in front of the lifecycle, as values. */
export function handAccessRefusals(context: LifecycleContext, refusals: AccessRefusals): void {
  entryOf(context).access = refusals;
}

function entryOf(context: LifecycleContext): Entry {
  const entry = byRuntime.get(context.runtime) ?? createEntry(context);
  if (context.brownouts) entry.brownouts = context.brownouts;
  return entry;
}

interface Entry {
  tables: DecisionTableSource;
  brownouts?: () => Brownout[];
  access?: AccessRefusals;
}

function createEntry(context: LifecycleContext): Entry {
  const { runtime, bundle, api, storage, recorder, config, clock } = context;
  const entry: Entry = {
    tables: createDecisionTableSource(
      {
        runtime,
        bundle,
        prefix: api.prefix,
        vendor: api.vendor,
        removedStatus: lifecycleSection.of(config).removedStatus,
        brownouts: () => entry.brownouts?.() ?? [],
        allowed: allowedPastClosing({ usage: storage.usage, flush: () => recorder.flush() }),
        access: () => entry.access,
        minimumVersions: followMinimumVersions(context, () => void entry.tables.current().catch(() => undefined)),
        // A gateway's versions that forward what their document does not declare.
        forwardUndocumented: (gatewaySection.of(config)?.versions ?? [])
          .filter((v) => 'upstream' in v && v.forwardUndocumented)
          .map((v) => v.name),
      },
      clock,
    ),
  };
  byRuntime.set(runtime, entry);
  keepCurrent(context, entry.tables);
  return entry;
}

/** Keep the table current so no request waits; a management call that may change state answers once it moved. */
function keepCurrent(context: LifecycleContext, tables: DecisionTableSource): void {
  const compile = () => tables.current().then(undefined, () => undefined);
  // Compiled before the server listens: the first request finds it.
  context.app.addHook('onReady', async () => {
    await compile();
  });
  context.runtime.onChange(() => void compile());
  // A callback hook, not an async one: the API's calls pass it without a promise.
  // eslint-disable-next-line max-params -- Fastify's onSend signature
  context.app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !request.url.startsWith('/admin/'))
      return done(null, payload);
    void compile().then(() => done(null, payload));
  });
}

/** The lifecycle the API's steps read: the runtime's shared verdicts, and the per-client rules decided on the table. */
export function tableLifecycleOf(context: LifecycleContext): LifecycleSource {
  const tables = decisionTablesOf(context);
  const perClient = { decisionTable: tables, clientElements: tableClientElements(tables, context.clock) };
  // The runtime's every other answer, as it is: only the per-client rules are the table's.
  return Object.assign(Object.create(context.runtime) as LifecycleSource, perClient);
}

/** The clients that had called a subject before its closing, each asked as the lifecycle asks (`calledBefore`). */
function allowedPastClosing(options: {
  usage: Pick<UsageStore, 'byClient' | 'elementCalls' | 'calledBefore'>;
  flush: () => Promise<void>;
}): (closing: { version: string; endpoint?: string; element?: string; at: number }) => Promise<string[]> {
  return async ({ version, endpoint, element, at }) => {
    await options.flush();
    // An element's calls are counted in their own rollup only: its candidates are the clients seen using it.
    const candidates =
      element === undefined
        ? (await options.usage.byClient({ since: 0, until: at, version })).map((r) => r.clientId)
        : (await options.usage.elementCalls())
            .filter((r) => r.version === version && r.element === element && r.firstSeen < at)
            .map((r) => r.clientId);
    const allowed: string[] = [];
    for (const clientId of new Set(candidates)) {
      const called = await options.usage.calledBefore({
        clientId,
        version,
        ...(endpoint === undefined ? {} : { endpoint }),
        ...(element === undefined ? {} : { element }),
        before: at,
      });
      if (called) allowed.push(clientId);
    }
    return allowed.sort();
  };
}

/** How often the stored minimum versions are read again, for a change whose message was lost. */
const reconcileMs = 5000;

/** The clients' minimum versions, with a stamp moved by the `clients` topic and by a periodic read (a lost message). */
function followMinimumVersions(
  context: Pick<LifecycleContext, 'app' | 'ops' | 'storage'>,
  moved: () => void,
): NonNullable<DecisionTableSources['minimumVersions']> {
  const { app, ops, storage } = context;
  let stamp = 0;
  let seen: string | undefined;
  const move = () => {
    stamp++;
    moved();
  };
  const unsubscribe = ops.changeFeed.subscribe(ChangeTopic.Clients, move);
  const reconcile = setInterval(() => {
    storage.clients.minimumVersions().then(
      (minimums) => {
        if (seen !== undefined && textOf(minimums) !== seen) move();
      },
      () => undefined,
    );
  }, reconcileMs);
  reconcile.unref();
  app.addHook('onClose', async () => {
    unsubscribe();
    clearInterval(reconcile);
  });
  return {
    // What the table was last compiled from: the periodic read compares the store with it.
    list: async () => {
      const minimums = await storage.clients.minimumVersions();
      seen = textOf(minimums);
      return minimums;
    },
    stamp: () => stamp,
  };
}

const textOf = (minimums: Readonly<Record<string, string>>) =>
  JSON.stringify(Object.entries(minimums).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * Keep the compiled table until its inputs move (lifecycle, grants, brownouts, minimum versions, a
 * closing: `recompileAt`); whether it is current is found without I/O, so a request may ask.
 */
function createDecisionTableSource(sources: DecisionTableSources, clock: Clock): DecisionTableSource {
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
