import type { Clock } from '../clock/index.ts';
import { checkDeprecationStatus, earliest, nextLifecycleChange } from './deprecation-status.ts';
import type { LifecycleVersion } from './schedule.ts';

/** Options for {@link versionListHeaders}. */
export interface VersionListHeadersOptions {
  versions: readonly LifecycleVersion[];
  clock: Clock;
}

/** Result of {@link versionListHeaders}. */
export interface VersionListHeaders {
  /** `api-supported-versions` (current) and `api-deprecated-versions` (deprecated, not yet removed); each omitted when empty. */
  headers: Record<string, string>;
  /** The first instant at which the lists may change by time alone; `undefined` when never. */
  changesAt: number | undefined;
}

/**
 * The `api-supported-versions` and `api-deprecated-versions` header values, oldest release first.
 * Removed versions appear in neither list.
 *
 * @example
 * ```ts
 * versionListHeaders({ versions, clock }).headers; // { 'api-supported-versions': 'v2', 'api-deprecated-versions': 'v1' }
 * ```
 */
export function versionListHeaders(options: VersionListHeadersOptions): VersionListHeaders {
  const supported: string[] = [];
  const deprecated: string[] = [];
  const ordered = [...options.versions].sort((a, b) => a.releasedAt - b.releasedAt);
  for (const version of ordered) {
    const { status } = checkDeprecationStatus({ schedule: version.schedule, clock: options.clock });
    if (status === 'not_deprecated') supported.push(version.name);
    else if (status !== 'removed') deprecated.push(version.name);
  }
  const headers: Record<string, string> = {};
  if (supported.length > 0) headers['api-supported-versions'] = supported.join(', ');
  if (deprecated.length > 0) headers['api-deprecated-versions'] = deprecated.join(', ');
  const now = options.clock.now();
  const changesAt = earliest(options.versions.map((v) => nextLifecycleChange({ schedule: v.schedule, now })));
  return { headers, changesAt };
}
