import type { Clock } from '../../core/clock/index.ts';
import { pickDefined } from '../../core/config/index.ts';
import {
  deprecationDatesOf,
  type DeprecationDates,
  type DeprecationStatus,
  type ElementDeprecation,
  type LifecycleState,
} from '../../core/lifecycle/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { sunsetCountdown, type ChangelogVersion, type SunsetCountdown } from '../../core/portal/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { LifecycleRuntime } from './runtime.ts';
import type { EndpointDeprecation } from '../../kernel/ports/index.ts';
import { isMigrationUrl } from '../../core/text/index.ts';

export interface VersionInfo extends DeprecationDates {
  name: string;
  state: LifecycleState;
  status: DeprecationStatus;
  /** Absent for a version released on no known date: it shows none. */
  releasedAt?: number;
  deprecatedAt?: number;
  sunsetAt?: number;
  countdown?: SunsetCountdown;
  replacement?: string;
  /** The migration guide, set once the version is deprecated. */
  guideUrl?: string;
  openapiUrl: string;
  docsUrl: string;
  changes: string[];
  endpoints: EndpointDeprecation[];
  /** Fields and query parameters of this version deprecated on their own, before and after their sunset. */
  elements: ElementDeprecation[];
  served: boolean;
}

/** Each version's live lifecycle and declared changes, oldest release first. */
export function describeVersions(options: {
  bundle: VersionBundle;
  runtime: LifecycleRuntime;
  clock: Clock;
}): VersionInfo[] {
  const { bundle, runtime, clock } = options;
  const now = clock.now();
  const endpoints = runtime.endpointDeprecations();
  const elements = runtime.elements();
  return runtime.document().versions.map((entry): VersionInfo => {
    const version = bundle.get(entry.name);
    const deprecatedAt = entry.deprecatedAt ? parseIsoInstant(entry.deprecatedAt) : undefined;
    const sunsetAt = entry.sunsetAt ? parseIsoInstant(entry.sunsetAt) : undefined;
    const releasedAt = entry.releasedAt ? parseIsoInstant(entry.releasedAt) : undefined;
    const deprecated = entry.status !== 'not_deprecated';
    const schedule = deprecated ? runtime.scheduleOf(entry.name) : undefined;
    return {
      name: entry.name,
      state: entry.state,
      status: entry.status,
      ...(releasedAt !== undefined ? { releasedAt } : {}),
      ...(deprecatedAt !== undefined ? { deprecatedAt } : {}),
      ...(sunsetAt !== undefined ? { sunsetAt, countdown: sunsetCountdown({ now, sunsetAt }) } : {}),
      ...(entry.replacement ? { replacement: entry.replacement } : {}),
      ...(deprecated && entry.migrationUrl && isMigrationUrl(entry.migrationUrl)
        ? { guideUrl: entry.migrationUrl }
        : {}),
      openapiUrl: entry.openapiUrl ?? `/api/${entry.name}/openapi.json`,
      docsUrl: `/docs/${entry.name}`,
      changes: version?.changes.map((c) => c.description) ?? [],
      endpoints: endpoints.filter((e) => e.version === entry.name && e.sunsetAt > now),
      // Kept after their sunset: the version still documents them (a field stays until the next version).
      elements: elements.filter((e) => e.version === entry.name),
      served: version !== undefined && entry.status !== 'removed',
      ...deprecationDatesOf(schedule ?? {}),
    };
  });
}

export function toChangelogVersions(infos: readonly VersionInfo[], bundle: VersionBundle): ChangelogVersion[] {
  const first = bundle.versions[0]?.name;
  return infos.map((v) => ({
    name: v.name,
    ...pickDefined(v, ['releasedAt']),
    ...(v.name === first ? { first: true } : {}),
    changes: v.changes,
    removed: v.status === 'removed',
    ...pickDefined(v, ['deprecatedAt', 'sunsetAt', 'replacement', 'guideUrl']),
  }));
}
