import type { Clock } from '../../core/clock/index.ts';
import { isMigrationUrl } from '../../core/text/index.ts';
import {
  checkDeprecationStatus,
  deprecationDatesOf,
  type DeprecationSchedule,
  type LifecycleVersion,
} from '../../core/lifecycle/index.ts';
import type { EndpointDeprecation, LifecycleStore, StoredSchedule } from '../../kernel/ports/index.ts';
import type { StartedLifecycle } from './runtime-start.ts';
import type { LifecycleSettings } from './settings.ts';

export type LifecycleState = ReturnType<typeof createLifecycleState>;

export function createLifecycleState(options: {
  started: StartedLifecycle;
  settings: LifecycleSettings;
  store: LifecycleStore;
  clock: Clock;
  prefix: string;
  onError?: ((error: unknown) => void) | undefined;
}) {
  const { started, store, clock, prefix } = options;
  const configured = options.settings.versions ?? {};
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

  const migrationUrl = (name: string) =>
    usable(schedules.get(name)?.migrationUrl) ??
    configured[name]?.migrationUrl ??
    `${prefix}/versions/${name}/migration-guide`;
  const buildVersions = (): LifecycleVersion[] =>
    started.names
      .map((name) => ({
        name,
        releasedAt: started.released.get(name)!,
        ...(schedules.get(name) ? { schedule: toSchedule(schedules.get(name)!) } : {}),
        ...(configured[name]?.replacement ? { replacement: configured[name]!.replacement } : {}),
        migrationUrl: migrationUrl(name),
        openapiUrl: `${prefix}/${name}/openapi.json`,
      }))
      .sort((a, b) => a.releasedAt - b.releasedAt);
  const versions = (): LifecycleVersion[] =>
    (lifecycleVersions ??= Object.freeze(buildVersions()) as LifecycleVersion[]);

  const state = {
    schedule: (version: string): StoredSchedule | undefined => schedules.get(version),
    endpoints: () => endpoints,
    versions,
    migrationUrl,
    replacementOf(name: string): string | undefined {
      const all = versions();
      const explicit = all.find((v) => v.name === name)?.replacement;
      if (explicit) return explicit;
      const index = all.findIndex((v) => v.name === name);
      return all.slice(index + 1).find((v) => !v.schedule)?.name;
    },
    generation: () => generation,
    onChange: (listener: () => void) => void listeners.push(listener),
    replace(update: { schedules?: StoredSchedule[]; endpoints?: EndpointDeprecation[] }) {
      const before = stateOf();
      if (update.schedules) schedules = new Map(update.schedules.map((s) => [s.version, s]));
      if (update.endpoints) endpoints = update.endpoints;
      lifecycleVersions = undefined;
      if (stateOf() !== before) moved();
    },
    /** Flag the version removed once its own sunset has passed, and persist that, so every instance agrees. */
    flagIfSunsetPassed(version: string) {
      const own = schedules.get(version);
      if (!own || !checkDeprecationStatus({ schedule: toSchedule(own), clock }).flaggedRemoved) return;
      const flagged = { ...own, removed: true };
      schedules.set(version, flagged);
      lifecycleVersions = undefined;
      moved();
      store.saveSchedule(flagged).catch((error: unknown) => options.onError?.(error));
    },
    flagPassedSunsets() {
      for (const version of [...schedules.keys()]) state.flagIfSunsetPassed(version);
    },
  };
  return state;
}

export function toSchedule(s: StoredSchedule): DeprecationSchedule {
  return {
    version: s.version,
    deprecatedAt: s.deprecatedAt,
    sunsetAt: s.sunsetAt,
    removed: s.removed,
    reason: s.reason,
    ...deprecationDatesOf(s),
  };
}

// A URL stored before the migration URL rule was enforced (`javascript:`, `//host`) is never linked.
export function usable(url: string | null | undefined): string | undefined {
  return url && isMigrationUrl(url) ? url : undefined;
}
