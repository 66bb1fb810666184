import {
  declaredOrder,
  deprecationDatesOf,
  MONTH_MS,
  orderReleases,
  type LifecycleVersion,
} from '../../core/lifecycle/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { StoredSchedule } from '../../kernel/ports/index.ts';
import type { VersionSettings } from './settings.ts';
import { toSchedule, usable } from './runtime-verdict.ts';

/**
 * The schedule a config entry declares (none without a sunset or a removal). An entry marked `removed`
 * without a `sunsetAt` is removed at its stored sunset if past, else now, never at its old deprecation date.
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

/** The versions in declared order with their release instants (the config's, else the bundle's), or `problems`. */
export function orderVersions(
  configured: Readonly<Record<string, Pick<VersionSettings, 'releasedAt'>>>,
  bundle: ReadonlyArray<{ name: string; releasedAt?: number | undefined }>,
): ReturnType<typeof orderReleases> {
  const names = declaredOrder({ configured: Object.keys(configured), bundle: bundle.map((v) => v.name) });
  const builtIn = new Map(bundle.map((v) => [v.name, v.releasedAt]));
  return orderReleases(
    names.map((name) => ({ name, releasedAt: configured[name]?.releasedAt, fallback: builtIn.get(name) })),
  );
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

interface VersionSources {
  schedules: ReadonlyMap<string, StoredSchedule>;
  configured: Readonly<Record<string, VersionSettings>>;
  prefix: string;
}

/** The versions as the lifecycle rules and documents read them, oldest release first, each with its schedule if any. */
export function lifecycleVersionsOf(
  releases: ReadonlyArray<{ name: string; releasedAt: number }>,
  o: VersionSources,
): LifecycleVersion[] {
  const { schedules, configured } = o;
  return releases
    .map(({ name, releasedAt }) => ({
      name,
      releasedAt,
      ...(schedules.get(name) ? { schedule: toSchedule(schedules.get(name)!) } : {}),
      ...(configured[name]?.replacement ? { replacement: configured[name]!.replacement } : {}),
      migrationUrl: migrationUrlOf(name, o),
      openapiUrl: `${o.prefix}/${name}/openapi.json`,
    }))
    .sort((a, b) => a.releasedAt - b.releasedAt);
}

/** A version's migration guide: its stored one, else its configured one, else the service's own page. */
export function migrationUrlOf(name: string, o: VersionSources): string {
  return (
    usable(o.schedules.get(name)?.migrationUrl) ??
    o.configured[name]?.migrationUrl ??
    `${o.prefix}/versions/${name}/migration-guide`
  );
}
