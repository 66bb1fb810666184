import { assertLifecycleConfig, buildLifecycleDocument, versionListHeaders } from '../../core/lifecycle/index.ts';
import type { LifecycleVerdict } from '../../core/lifecycle/index.ts';
import { startLifecycle } from './runtime-start.ts';
import { createLifecycleState } from './runtime-state.ts';
import type { LifecycleRuntime, LifecycleRuntimeOptions } from './runtime-types.ts';
import { computeVerdict, endpointsOf, endpointSubject } from './runtime-verdict.ts';
import { manifestLinkOf } from './manifest-url.ts';
import { createClientAccess } from './client-access.ts';

export type { LifecycleRuntime, LifecycleRuntimeOptions } from './runtime-types.ts';

/** Refuses to start on a policy violation; answers per request from a cache kept until the headers next change. */
export async function createLifecycleRuntime(options: LifecycleRuntimeOptions): Promise<LifecycleRuntime> {
  const { settings, store, clock, prefix } = options;
  const started = await startLifecycle(options);
  const state = createLifecycleState({ started, settings, store, clock, prefix, onError: options.onError });
  const warnings = assertLifecycleConfig({ versions: state.versions(), audience: settings.audience });
  const cache = new Map<string, { verdict: LifecycleVerdict; until: number }>();
  let list: { headers: Record<string, string>; until: number } | undefined;
  const manifestLink = manifestLinkOf(prefix);
  const access = createClientAccess({ grants: options.grants });
  await access.load();

  const runtime: LifecycleRuntime = {
    warnings,
    configConflicts: started.conflicts,
    verdict(key) {
      const id = `${key.version} ${key.method} ${key.path}`;
      const hit = cache.get(id);
      if (hit && clock.now() < hit.until) return hit.verdict;
      // A cached verdict holds until the headers next change: the state catches up with the clock first.
      state.flagIfSunsetPassed(key.version);
      const fresh = computeVerdict(state, key, { clock, prefix, settings, manifestLink });
      if (access.touches(state, key, fresh.verdict.removed !== undefined)) fresh.verdict.perClient = true;
      cache.set(id, fresh);
      return fresh.verdict;
    },
    extendedAccessClients: (subject) => access.extendedAccessClients(subject),
    grantsStamp: () => access.stamp(),
    verdictAt(key, at, clientId) {
      const fixed = { now: () => at };
      return computeVerdict(state, key, {
        clock: fixed,
        prefix,
        settings,
        manifestLink,
        ...(clientId === undefined
          ? {}
          : { extension: (subject: string, cap: number | undefined) => access.extensionOf(clientId, subject, cap) }),
      });
    },
    extensionOf(clientId, subject) {
      if (subject.endpoint === undefined)
        return access.extensionOf(clientId, subject.version, state.schedule(subject.version)?.extendedAccessUntil);
      const [method, path] = subject.endpoint.split(' ') as [string, string];
      const key = { version: subject.version, method, path };
      return access.extensionOf(
        clientId,
        endpointSubject(key),
        endpointsOf(state.endpoints(), key)[0]?.extendedAccessUntil,
      );
    },
    elementTouches: (e) => access.elementTouches(e, clock.now()),
    listHeaders() {
      if (list && clock.now() < list.until) return list.headers;
      const { headers, changesAt } = versionListHeaders({ versions: state.versions(), clock });
      list = { headers: headers as Record<string, string>, until: changesAt ?? Number.POSITIVE_INFINITY };
      return list.headers;
    },
    document() {
      const document = buildLifecycleDocument({ versions: state.versions(), clock, audience: settings.audience });
      // A stand-in date only keeps the declared order: a client is never shown one.
      return {
        ...document,
        versions: document.versions.map((v) => (started.undated.has(v.name) ? { ...v, releasedAt: null } : v)),
      };
    },
    versions: state.versions,
    migrationUrl: state.migrationUrl,
    endpointDeprecations: state.endpoints,
    scheduleOf: state.schedule,
    elements: () => settings.elementDeprecations ?? [],
    manifestLink,
    headerStyle: settings.headerStyle,
    audience: settings.audience,
    generation: state.generation,
    // Nothing to weigh, close or grant: the lifecycle step has nothing to do on the route until the generation moves.
    unscheduled: (key) => !state.schedule(key.version) && endpointsOf(state.endpoints(), key).length === 0,
    onChange: state.onChange,
    apply(update) {
      cache.clear();
      list = undefined;
      state.replace(update);
    },
    async refresh() {
      await access.load();
      runtime.apply({ schedules: await store.listSchedules(), endpoints: await store.listEndpointDeprecations() });
      // The periodic refresh persists a passed sunset too, so the store says so with no call to that version.
      state.flagPassedSunsets();
    },
  };
  return runtime;
}
