import {
  checkLifecycleConfig,
  declaredOrder,
  deprecationDatesOf,
  MONTH_MS,
  orderReleases,
  PolicyRule,
  type LifecycleVersion,
} from '../../core/lifecycle/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { StoredSchedule } from '../../kernel/ports/index.ts';
import type { LifecycleSettings, VersionSettings } from './settings.ts';

/**
 * The schedule a config file's entry declares, or none when it declares no sunset and no removal.
 * `deprecatedAt` stands in for an entry without one: the stored date, else now. An entry marked
 * `removed` without a `sunsetAt` is removed when a start first reads it: at its stored sunset if
 * that has passed already (it was removed then), else now, never at its old deprecation date.
 */
export function configuredSchedule(
  name: string,
  v: VersionSettings,
  known: { now: number; stored?: Pick<StoredSchedule, 'deprecatedAt' | 'sunsetAt'> | undefined },
): StoredSchedule | undefined {
  if (v.sunsetAt === undefined && !v.removed) return undefined;
  const deprecatedAt = v.deprecatedAt ?? known.stored?.deprecatedAt ?? known.now;
  const removedAt = Math.min(known.stored?.sunsetAt ?? known.now, known.now);
  const sunsetAt = v.sunsetAt ?? (v.removed ? removedAt : deprecatedAt);
  return {
    version: name,
    // A removal dated now may precede a stored deprecation; declared dates stay as written, so
    // the lifecycle rules (sunset-order) judge what the file says.
    deprecatedAt: v.sunsetAt === undefined ? Math.min(deprecatedAt, sunsetAt) : deprecatedAt,
    sunsetAt,
    reason: v.reason ?? 'planned',
    removed: v.removed === true,
    migrationUrl: v.migrationUrl ?? null,
    ...deprecationDatesOf(v),
  };
}

/** The default deprecation of a version when the config declares none: six months' notice from now. */
export function defaultSchedule(name: string, now: number): StoredSchedule {
  return configuredSchedule(name, { deprecatedAt: now, sunsetAt: now + 6 * MONTH_MS }, { now })!;
}

/**
 * The versions in declared order (`declaredOrder`), with their release instants: the config's, else
 * the bundle's own (`fallback`); `problems` when they contradict that order.
 */
export function orderVersions(
  configured: Readonly<Record<string, Pick<VersionSettings, 'releasedAt'>>>,
  bundle: ReadonlyArray<{ name: string; releasedAt?: number | undefined }>,
): { names: string[] } & ReturnType<typeof orderReleases> {
  const names = declaredOrder({ configured: Object.keys(configured), bundle: bundle.map((v) => v.name) });
  const builtIn = new Map(bundle.map((v) => [v.name, v.releasedAt]));
  const ordered = orderReleases(
    names.map((name) => ({ name, releasedAt: configured[name]?.releasedAt, fallback: builtIn.get(name) })),
  );
  return { names, ...ordered };
}

/** Release instants the caller knows (none for a team's API or the gateway: the runtime keeps a stand-in). */
export function releaseDates(
  bundle: Pick<VersionBundle, 'versions'>,
  releases: Readonly<Record<string, string>> = {},
): Array<{ name: string; releasedAt?: number }> {
  return bundle.versions.map((v) => {
    const releasedAt = parseIsoInstant(releases[v.name] ?? '');
    return releasedAt === undefined ? { name: v.name } : { name: v.name, releasedAt };
  });
}

/**
 * Every policy violation of the config file alone, before storage opens, so a start reports them with
 * the configuration's own errors; the runtime checks again with the stored schedules.
 */
export function lifecyclePolicyProblems(options: {
  settings: LifecycleSettings;
  versions: readonly string[];
  prefix: string;
  now: number;
  /** Deprecated with the default notice when the file declares no versions (`installService`'s default). */
  defaultDeprecated?: readonly string[];
  releases?: Readonly<Record<string, string>>;
}): string[] {
  const { settings, now, prefix } = options;
  const flawed = new Set(settings.flawed ?? []);
  const configured = Object.fromEntries(Object.entries(settings.versions ?? {}).filter(([name]) => !flawed.has(name)));
  const bundle = releaseDates(
    { versions: options.versions.map((name) => ({ name })) as VersionBundle['versions'] },
    options.releases,
  );
  const { releases, problems } = orderVersions(configured, bundle);
  if (problems.length > 0) return problems.map((p) => `valid-config: ${p}`);
  const defaults = settings.versions ? [] : (options.defaultDeprecated ?? []);
  const versions: LifecycleVersion[] = releases.map(({ name, releasedAt }) => {
    const schedule = defaults.includes(name)
      ? defaultSchedule(name, now)
      : configured[name] && configuredSchedule(name, configured[name], { now });
    const migrationUrl = configured[name]?.migrationUrl ?? `${prefix}/versions/${name}/migration-guide`;
    const replacement = configured[name]?.replacement;
    return {
      name,
      releasedAt,
      migrationUrl,
      ...(schedule
        ? {
            schedule: {
              version: name,
              deprecatedAt: schedule.deprecatedAt,
              sunsetAt: schedule.sunsetAt,
              removed: schedule.removed,
              reason: schedule.reason,
            },
          }
        : {}),
      ...(replacement ? { replacement } : {}),
    };
  });
  // A deprecation the file leaves undated starts at its stored date, else now: only the runtime,
  // with the store, can tell its notice period.
  const undated = (name: unknown) => typeof name === 'string' && configured[name]?.deprecatedAt === undefined;
  return checkLifecycleConfig({ versions, audience: settings.audience })
    .violations.filter((v) => !(v.extensions.rule === PolicyRule.NoticePeriod && undated(v.extensions.version)))
    .map((v) => v.detail);
}
