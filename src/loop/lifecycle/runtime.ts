import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode } from '../../core/errors/index.ts';
import { isMigrationUrl } from '../../core/text/index.ts';
import {
  assertLifecycleConfig,
  buildLifecycleDocument,
  checkDeprecationStatus,
  createViolation,
  declaredOrder,
  evaluateVerdict,
  MONTH_MS,
  orderReleases,
  PolicyRule,
  toPolicyError,
  versionListHeaders,
  type DeprecationSchedule,
  type ElementDeprecation,
  type LifecycleVerdict,
  type VerdictCandidate,
  type LifecycleDocument,
  type LifecycleVersion,
  type PolicyWarning,
} from '../../core/lifecycle/index.ts';
import type { EndpointDeprecation, LifecycleStore, StoredSchedule } from '../../kernel/ports/index.ts';
import { configuredSchedule } from './policy-check.ts';
import type { LifecycleSettings } from './settings.ts';

/** Options for {@link createLifecycleRuntime}. */
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
}

/** The service's live view of the lifecycle, cached until the next instant it changes. */
export interface LifecycleRuntime {
  verdict(options: { version: string; method: string; path: string }): LifecycleVerdict;
  listHeaders(): Record<string, string>;
  document(): LifecycleDocument;
  versions(): LifecycleVersion[];
  migrationUrl(version: string): string;
  endpointDeprecations(): EndpointDeprecation[];
  /** Fields and query parameters deprecated within a version (`fieldDeprecations`, `parameterDeprecations`), from the config. */
  elements(): readonly ElementDeprecation[];
  headerStyle: LifecycleSettings['headerStyle'];
  audience: LifecycleSettings['audience'];
  /**
   * Counts the changes of lifecycle state (schedules, endpoint deprecations, a version flagged
   * removed): whatever is derived from the lifecycle and kept between requests is stale once it moves.
   */
  generation(): number;
  /** Replace state after a write through the management API, or a refresh from the store. */
  apply(options: { schedules?: StoredSchedule[]; endpoints?: EndpointDeprecation[] }): void;
  refresh(): Promise<void>;
  warnings: PolicyWarning[];
}

/**
 * Load schedules from the store, merge the config file's, check every policy rule (refusing to
 * start on a violation) and answer per request from a cache that expires when the headers next
 * change.
 */
export async function createLifecycleRuntime(options: LifecycleRuntimeOptions): Promise<LifecycleRuntime> {
  const { settings, store, clock, prefix } = options;
  let schedules = new Map((await store.listSchedules()).map((s) => [s.version, s]));
  let endpoints = await store.listEndpointDeprecations();
  const configured = settings.versions ?? {};
  for (const name of settings.versions ? [] : (options.defaultDeprecated ?? [])) {
    if (schedules.has(name)) continue;
    const now = clock.now();
    const stored: StoredSchedule = {
      version: name,
      deprecatedAt: now,
      sunsetAt: now + 6 * MONTH_MS,
      removed: false,
      reason: 'planned',
      migrationUrl: null,
    };
    await store.saveSchedule(stored);
    schedules.set(name, stored);
  }
  const names = declaredOrder({ configured: Object.keys(configured), bundle: options.versions.map((v) => v.name) });
  const builtIn = new Map(options.versions.map((v) => [v.name, v.releasedAt]));
  const { releases, problems } = orderReleases(
    names.map((name) => ({ name, releasedAt: configured[name]?.releasedAt, fallback: builtIn.get(name) })),
  );
  const orderError = toPolicyError(
    problems.map((message) =>
      createViolation({ code: ErrorCode.InvalidConfig, rule: PolicyRule.ValidConfig, message }),
    ),
    {
      subject: 'lifecycle configuration',
      code: ErrorCode.InvalidConfig,
    },
  );
  if (orderError) throw orderError;
  const released = new Map(releases.map((r) => [r.name, r.releasedAt]));
  const undated = new Set(releases.filter((r) => !r.declared).map((r) => r.name));
  for (const [name, v] of Object.entries(configured)) {
    const declared = configuredSchedule(name, v, { now: clock.now(), stored: schedules.get(name) });
    if (!declared) continue;
    const stored: StoredSchedule = { ...declared, removed: declared.removed || schedules.get(name)?.removed === true };
    await store.saveSchedule(stored);
    schedules.set(name, stored);
  }
  for (const e of settings.endpointDeprecations) {
    const stored = { ...e, deprecatedAt: e.deprecatedAt ?? clock.now(), migrationUrl: e.migrationUrl ?? null };
    await store.saveEndpointDeprecation(stored);
  }
  endpoints = await store.listEndpointDeprecations();

  const buildLifecycle = (): LifecycleVersion[] =>
    names
      .map((name) => ({
        name,
        releasedAt: released.get(name)!,
        ...(schedules.get(name) ? { schedule: toSchedule(schedules.get(name)!) } : {}),
        ...(configured[name]?.replacement ? { replacement: configured[name]!.replacement } : {}),
        migrationUrl: migrationUrl(name),
        openapiUrl: `${prefix}/${name}/openapi.json`,
      }))
      .sort((a, b) => a.releasedAt - b.releasedAt);
  // Asked by per-request hooks (removed-version gate, metrics): built once per change of state.
  let lifecycleVersions: LifecycleVersion[] | undefined;
  const toLifecycle = (): LifecycleVersion[] =>
    (lifecycleVersions ??= Object.freeze(buildLifecycle()) as LifecycleVersion[]);
  const migrationUrl = (name: string) =>
    usable(schedules.get(name)?.migrationUrl) ??
    configured[name]?.migrationUrl ??
    `${prefix}/versions/${name}/migration-guide`;

  const warnings = assertLifecycleConfig({ versions: toLifecycle(), audience: settings.audience });
  const cache = new Map<string, { verdict: LifecycleVerdict; until: number }>();
  // The periodic refresh applies the same state again and again: only a real change moves it.
  let generation = 0;
  const stateOf = () => JSON.stringify([[...schedules.values()], endpoints]);
  let list: { headers: Record<string, string>; until: number } | undefined;

  const replacementOf = (name: string): string | undefined => {
    const all = toLifecycle();
    const explicit = all.find((v) => v.name === name)?.replacement;
    if (explicit) return explicit;
    const index = all.findIndex((v) => v.name === name);
    return all.slice(index + 1).find((v) => !v.schedule)?.name;
  };

  const compute = (key: {
    version: string;
    method: string;
    path: string;
  }): { verdict: LifecycleVerdict; until: number } => {
    const candidates: VerdictCandidate[] = [];
    const own = schedules.get(key.version);
    if (own) candidates.push({ schedule: toSchedule(own), migrationUrl: migrationUrl(key.version) });
    for (const e of endpoints) {
      if (e.version === key.version && e.method === key.method && e.path === key.path) {
        candidates.push({
          schedule: {
            version: key.version,
            deprecatedAt: e.deprecatedAt,
            sunsetAt: e.sunsetAt,
            removed: false,
            reason: 'planned',
          },
          migrationUrl: usable(e.migrationUrl) ?? migrationUrl(key.version),
          subject: `${e.method} ${e.path} in ${key.version}`,
        });
      }
    }
    // The version's own removal is persisted once its sunset passes, so every instance agrees.
    for (const c of candidates) {
      if (c.subject || !own) continue;
      if (checkDeprecationStatus({ schedule: c.schedule, clock }).flaggedRemoved) {
        const flagged = { ...own, removed: true };
        schedules.set(key.version, flagged);
        lifecycleVersions = undefined;
        generation++;
        store.saveSchedule(flagged).catch((error: unknown) => options.onError?.(error));
      }
    }
    const replacement = replacementOf(key.version);
    return evaluateVerdict({
      version: key.version,
      candidates,
      clock,
      prefix,
      style: settings.headerStyle,
      removedStatus: settings.removedStatus,
      ...(replacement ? { replacement } : {}),
    });
  };

  const runtime: LifecycleRuntime = {
    warnings,
    verdict(key) {
      const id = `${key.version} ${key.method} ${key.path}`;
      const hit = cache.get(id);
      if (hit && clock.now() < hit.until) return hit.verdict;
      const fresh = compute(key);
      cache.set(id, fresh);
      return fresh.verdict;
    },
    listHeaders() {
      if (list && clock.now() < list.until) return list.headers;
      const { headers, changesAt } = versionListHeaders({ versions: toLifecycle(), clock });
      list = { headers: headers as Record<string, string>, until: changesAt ?? Number.POSITIVE_INFINITY };
      return list.headers;
    },
    document() {
      const document = buildLifecycleDocument({ versions: toLifecycle(), clock, audience: settings.audience });
      // A stand-in date only keeps the declared order: a client is never shown one.
      return {
        ...document,
        versions: document.versions.map((v) => (undated.has(v.name) ? { ...v, releasedAt: null } : v)),
      };
    },
    versions: toLifecycle,
    migrationUrl,
    endpointDeprecations: () => endpoints,
    elements: () => settings.elementDeprecations ?? [],
    headerStyle: settings.headerStyle,
    audience: settings.audience,
    generation: () => generation,
    apply(update) {
      const before = stateOf();
      if (update.schedules) schedules = new Map(update.schedules.map((s) => [s.version, s]));
      if (update.endpoints) endpoints = update.endpoints;
      cache.clear();
      list = undefined;
      lifecycleVersions = undefined;
      if (stateOf() !== before) generation++;
    },
    async refresh() {
      runtime.apply({ schedules: await store.listSchedules(), endpoints: await store.listEndpointDeprecations() });
    },
  };
  return runtime;
}

function toSchedule(s: StoredSchedule): DeprecationSchedule {
  return {
    version: s.version,
    deprecatedAt: s.deprecatedAt,
    sunsetAt: s.sunsetAt,
    removed: s.removed,
    reason: s.reason,
  };
}

// A URL stored before the migration URL rule was enforced (`javascript:`, `//host`) is never linked.
function usable(url: string | null | undefined): string | undefined {
  return url && isMigrationUrl(url) ? url : undefined;
}
