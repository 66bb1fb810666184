import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode } from '../../core/errors/index.ts';
import {
  assertLifecycleConfig,
  createViolation,
  PolicyRule,
  toPolicyError,
  nextReplacement,
  undatedLifecycleDocument,
  checkDeprecationStatus,
  evaluateVerdict,
  versionListHeaders,
  type DeprecationSchedule,
  type ElementDeprecation,
  type LifecycleDocument,
  type LifecycleVerdict,
  type LifecycleVersion,
  type VerdictCandidate,
} from '../../core/lifecycle/index.ts';
import type {
  EndpointDeprecation,
  ExtendedAccessStore,
  LifecycleStore,
  StoredSchedule,
} from '../../kernel/ports/index.ts';
import {
  configuredSchedule,
  defaultSchedule,
  lifecycleVersionsOf,
  migrationUrlOf,
  orderVersions,
} from './policy-check.ts';
import { mergeConfigured, type ConfigConflict } from './config-merge.ts';
import { closingsOf, endpointsOf, endpointSubject, toSchedule, usable, type VerdictKey } from './runtime-verdict.ts';
import { manifestLinkOf } from './manifest-url.ts';
import { createClientAccess } from './client-access.ts';
import type { LifecycleSettings } from './settings.ts';

export interface LifecycleRuntimeOptions {
  settings: LifecycleSettings;
  store: LifecycleStore;
  clock: Clock;
  /** Versions with code, oldest first, with their default release instants if any (kept only where they fit that order). */
  versions: Array<{ name: string; releasedAt?: number | undefined }>;
  prefix: string;
  /** Deprecated with the default notice at first start when the config declares no versions. */
  defaultDeprecated?: string[];
  onError?: (error: unknown) => void;
  /** Per-client grants past a sunset: loaded at start and on every `refresh`. */
  grants?: Pick<ExtendedAccessStore, 'list'>;
}

/** The service's live view of the lifecycle, cached until the next instant it changes. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that the API report names it rather than spelling out its members
export interface LifecycleRuntime extends Awaited<ReturnType<typeof createLifecycleRuntime>> {}

type Verdict = { verdict: LifecycleVerdict; until: number };

/** Refuses to start on a policy violation; answers per request from a cache kept until the headers next change. */
export async function createLifecycleRuntime(options: LifecycleRuntimeOptions) {
  const { settings, store, clock, prefix } = options;
  const started = await startLifecycle(options);
  const configured = settings.versions ?? {};
  let { schedules, endpoints } = started;
  // The periodic refresh applies the same state again and again: only a real change moves it.
  let generation = 0;
  const listeners: Array<() => void> = [];
  const moved = () => {
    generation++;
    for (const listener of listeners) listener();
  };
  const stateOf = () => JSON.stringify([[...schedules.values()], endpoints]);
  // Asked by per-request hooks (removed-version gate, metrics): built once per change of state.
  let lifecycleVersions: LifecycleVersion[] | undefined;
  const cache = new Map<string, Verdict>();
  let list: { headers: Record<string, string>; until: number } | undefined;
  const manifestLink = manifestLinkOf(prefix);

  const migrationUrl = (name: string): string => migrationUrlOf(name, { schedules, configured, prefix });
  const versions = (): LifecycleVersion[] =>
    (lifecycleVersions ??= Object.freeze(
      lifecycleVersionsOf(started.releases, { schedules, configured, prefix }),
    ) as LifecycleVersion[]);
  const warnings = assertLifecycleConfig({ versions: versions(), audience: settings.audience });
  const access = createClientAccess({ grants: options.grants });
  await access.load();
  /** Flag the version removed once its own sunset has passed, and persist that, so every instance agrees. */
  const flagIfSunsetPassed = (version: string) => {
    const own = schedules.get(version);
    if (!own || !checkDeprecationStatus({ schedule: toSchedule(own), clock }).flaggedRemoved) return;
    const flagged = { ...own, removed: true };
    schedules.set(version, flagged);
    lifecycleVersions = undefined;
    moved();
    store.saveSchedule(flagged).catch((error: unknown) => options.onError?.(error));
  };

  /**
   * The verdict of one key, and until when it holds: the removed candidate or the nearest sunset
   * wins. `extension`: one client's own date past a subject's sunset, given its cap; absent for
   * the shared verdict.
   */
  const evaluate = (
    key: VerdictKey,
    at: Clock,
    extension?: (subject: string, cap: number | undefined) => number | undefined,
  ): Verdict => {
    const candidates: VerdictCandidate[] = [];
    const extended = (subject: string, schedule: DeprecationSchedule, cap: number | undefined) => {
      const until = extension?.(subject, cap);
      // An extension only ever adds time: a date before the public sunset leaves the public one.
      return until === undefined || until <= schedule.sunsetAt
        ? schedule
        : { ...schedule, sunsetAt: until, removed: false };
    };
    const own = schedules.get(key.version);
    if (own)
      candidates.push({
        schedule: extended(key.version, toSchedule(own), own.extendedAccessUntil),
        migrationUrl: migrationUrl(key.version),
      });
    for (const e of endpointsOf(endpoints, key)) {
      const schedule: DeprecationSchedule = {
        version: key.version,
        deprecatedAt: e.deprecatedAt,
        sunsetAt: e.sunsetAt,
        removed: false,
        reason: 'planned',
      };
      candidates.push({
        schedule: extended(endpointSubject(key), schedule, e.extendedAccessUntil),
        migrationUrl: usable(e.migrationUrl) ?? migrationUrl(key.version),
        subject: `${e.method} ${e.path} in ${key.version}`,
      });
    }
    const replacement = nextReplacement(versions(), key.version);
    const evaluated = evaluateVerdict({
      version: key.version,
      candidates,
      clock: at,
      prefix,
      style: settings.headerStyle,
      removedStatus: settings.removedStatus,
      ...(replacement ? { replacement } : {}),
    });
    // The deprecation manifest, after the guide: a client that takes the first `rel="deprecation"`
    // still gets the guide. Computed with the verdict, which is cached: no work per request.
    const { headers } = evaluated.verdict;
    if (headers.Link !== undefined) headers.Link = `${headers.Link}, ${manifestLink}`;
    return evaluated;
  };

  const runtime = {
    warnings,
    /** Where the config file and the stored schedules differed at start, and which won (see `mergeConfigured`). */
    configConflicts: started.conflicts,
    verdict(key: VerdictKey): LifecycleVerdict {
      const id = `${key.version} ${key.method} ${key.path}`;
      const hit = cache.get(id);
      if (hit && clock.now() < hit.until) return hit.verdict;
      // A cached verdict holds until the headers next change: the state catches up with the clock first.
      flagIfSunsetPassed(key.version);
      const fresh = evaluate(key, clock);
      // Per-client rules: a grant, or, before the removal, a closing date.
      if (
        access.granted(key) ||
        (fresh.verdict.removed === undefined && closingsOf(schedules.get(key.version), endpoints, key).length > 0)
      )
        fresh.verdict.perClient = true;
      cache.set(id, fresh);
      return fresh.verdict;
    },
    /** Moves each time a refresh changes the grants (the lifecycle generation does not). */
    grantsStamp: () => access.stamp(),
    /** The grants of a subject as loaded: each client's latest date, uncapped. */
    grantsOf: access.grantsOf,
    /**
     * The verdict of a key at an instant, as a request then would get it (for `clientId`, with its
     * extended access): what the decision table is compiled from. Reads the state only.
     */
    verdictAt(key: VerdictKey, at: number, clientId?: string): Verdict {
      return evaluate(
        key,
        { now: () => at },
        clientId === undefined ? undefined : (subject, cap) => access.extensionOf(clientId, subject, cap),
      );
    },
    /**
     * A client's own date for a version (`v1`) or endpoint (`v1 GET /users/{id}`): its grant's
     * `until`, within the subject's cap; undefined without an active grant or without a cap.
     */
    extensionOf(clientId: string, subject: { version: string; endpoint?: string }): number | undefined {
      if (subject.endpoint === undefined)
        return access.extensionOf(clientId, subject.version, schedules.get(subject.version)?.extendedAccessUntil);
      const [method, path] = subject.endpoint.split(' ') as [string, string];
      const key = { version: subject.version, method, path };
      return access.extensionOf(clientId, endpointSubject(key), endpointsOf(endpoints, key)[0]?.extendedAccessUntil);
    },
    /** See `LifecycleSource.elementTouches`. */
    elementTouches: (e: ElementDeprecation) => access.elementTouches(e, clock.now()),
    listHeaders(): Record<string, string> {
      if (list && clock.now() < list.until) return list.headers;
      const { headers, changesAt } = versionListHeaders({ versions: versions(), clock });
      list = { headers: headers as Record<string, string>, until: changesAt ?? Number.POSITIVE_INFINITY };
      return list.headers;
    },
    document: (): LifecycleDocument =>
      undatedLifecycleDocument({ versions: versions(), clock, audience: settings.audience, undated: started.undated }),
    versions,
    migrationUrl,
    endpointDeprecations: (): EndpointDeprecation[] => endpoints,
    /** A version's stored schedule, with its cap and closing date; undefined when not deprecated. */
    scheduleOf: (version: string): StoredSchedule | undefined => schedules.get(version),
    /** Fields and query parameters deprecated within a version (`fieldDeprecations`, `parameterDeprecations`), from the config. */
    elements: (): readonly ElementDeprecation[] => settings.elementDeprecations ?? [],
    /** The `Link` value of the API's deprecation manifest, sent last by deprecated responses. */
    manifestLink,
    headerStyle: settings.headerStyle,
    audience: settings.audience,
    /**
     * Counts the changes of lifecycle state (schedules, endpoint deprecations, a version flagged
     * removed): whatever is derived from the lifecycle and kept between requests is stale once it moves.
     */
    generation: () => generation,
    // Nothing to weigh, close or grant: the lifecycle step has nothing to do on the route until the generation moves.
    unscheduled: (key: VerdictKey) => !schedules.has(key.version) && endpointsOf(endpoints, key).length === 0,
    onChange: (listener: () => void) => void listeners.push(listener),
    /** Replace state after a write through the management API, or a refresh from the store. */
    apply(update: { schedules?: StoredSchedule[]; endpoints?: EndpointDeprecation[] }): void {
      cache.clear();
      list = undefined;
      const before = stateOf();
      if (update.schedules) schedules = new Map(update.schedules.map((s) => [s.version, s]));
      if (update.endpoints) endpoints = update.endpoints;
      lifecycleVersions = undefined;
      if (stateOf() !== before) moved();
    },
    async refresh(): Promise<void> {
      await access.load();
      runtime.apply({ schedules: await store.listSchedules(), endpoints: await store.listEndpointDeprecations() });
      // The periodic refresh persists a passed sunset too, so the store says so with no call to that version.
      for (const version of [...schedules.keys()]) flagIfSunsetPassed(version);
    },
  };
  return runtime;
}

/** Write the config's schedules over the stored ones (`mergeConfigured`); refuse a contradictory release order. */
async function startLifecycle(options: LifecycleRuntimeOptions) {
  const { settings, store, clock } = options;
  const schedules = new Map((await store.listSchedules()).map((s) => [s.version, s]));
  const save = async (schedule: StoredSchedule) => {
    await store.saveSchedule(schedule);
    schedules.set(schedule.version, schedule);
  };
  for (const name of settings.versions ? [] : (options.defaultDeprecated ?? []))
    if (!schedules.has(name)) await save(defaultSchedule(name, clock.now()));
  const configured = settings.versions ?? {};
  const { releases, problems } = orderVersions(configured, options.versions);
  const orderError = toPolicyError(
    problems.map((message) =>
      createViolation({ code: ErrorCode.InvalidConfig, rule: PolicyRule.ValidConfig, message }),
    ),
    { subject: 'lifecycle configuration', code: ErrorCode.InvalidConfig },
  );
  if (orderError) throw orderError;
  const conflicts: ConfigConflict[] = [];
  for (const [name, entry] of Object.entries(configured)) {
    const declared = configuredSchedule(name, entry, { now: clock.now(), stored: schedules.get(name) });
    if (!declared) continue;
    const { save: merged, conflict } = mergeConfigured({ entry, declared, stored: schedules.get(name) });
    if (conflict) conflicts.push(conflict);
    if (merged) await save(merged);
  }
  for (const e of settings.endpointDeprecations) {
    const stored = { ...e, deprecatedAt: e.deprecatedAt ?? clock.now(), migrationUrl: e.migrationUrl ?? null };
    await store.saveEndpointDeprecation(stored);
  }
  return {
    schedules,
    endpoints: await store.listEndpointDeprecations(),
    releases,
    undated: new Set(releases.filter((r) => !r.declared).map((r) => r.name)),
    conflicts,
  };
}
