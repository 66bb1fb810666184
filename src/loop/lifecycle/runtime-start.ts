import { ErrorCode } from '../../core/errors/index.ts';
import { createViolation, PolicyRule, toPolicyError } from '../../core/lifecycle/index.ts';
import type { StoredSchedule } from '../../kernel/ports/index.ts';
import { configuredSchedule, defaultSchedule, orderVersions } from './policy-check.ts';
import { mergeConfigured, type ConfigConflict } from './config-merge.ts';
import type { LifecycleRuntimeOptions } from './runtime.ts';

/** The lifecycle once a start has written the config's schedules to the store. */
export type StartedLifecycle = Awaited<ReturnType<typeof startLifecycle>>;

/** Write the config's schedules over the stored ones (`mergeConfigured`); refuse a contradictory release order. */
export async function startLifecycle(options: LifecycleRuntimeOptions) {
  const { settings, store, clock } = options;
  const schedules = new Map((await store.listSchedules()).map((s) => [s.version, s]));
  await saveDefaultDeprecations(options, schedules);
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
    const { save, conflict } = mergeConfigured({ entry, declared, stored: schedules.get(name) });
    if (conflict) conflicts.push(conflict);
    if (!save) continue;
    await store.saveSchedule(save);
    schedules.set(name, save);
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

async function saveDefaultDeprecations(
  options: LifecycleRuntimeOptions,
  schedules: Map<string, StoredSchedule>,
): Promise<void> {
  const { settings, store, clock } = options;
  for (const name of settings.versions ? [] : (options.defaultDeprecated ?? [])) {
    if (schedules.has(name)) continue;
    const stored = defaultSchedule(name, clock.now());
    await store.saveSchedule(stored);
    schedules.set(name, stored);
  }
}
