import type { Clock } from '../clock/index.ts';
import { checkDeprecationStatus, type DeprecationStatus, earliest, nextLifecycleChange } from './deprecation-status.ts';
import { ENDING_SOON_AFTER_MS, DAY_MS, WARNING_WINDOW_MS } from './durations.ts';
import { stateAt, type LifecycleState } from './lifecycle-state.ts';
import type { LifecycleVersion, Audience } from './schedule.ts';
import { resolveReplacement } from './replacement-rule.ts';
import { minimumNoticeMs } from './schedule-rules.ts';
import { formatIsoInstant } from '../time/index.ts';

/** One version in the public {@link LifecycleDocument}; instants are ISO 8601, absent values `null`. */
interface LifecycleDocumentEntry {
  name: string;
  state: LifecycleState;
  status: DeprecationStatus;
  /** `null` when the release date was never declared: shown as unknown rather than invented. */
  releasedAt: string | null;
  deprecatedAt: string | null;
  sunsetAt: string | null;
  replacement: string | null;
  migrationUrl: string | null;
  openapiUrl: string | null;
}

/** The public, machine-readable lifecycle of every version. */
export interface LifecycleDocument {
  versions: LifecycleDocumentEntry[];
  policy: { audience: Audience; minimumNoticeDays: number; endingSoonAfterDays: number; warningDays: number };
  /** When a state or status next changes by time alone: the document may be cached until then. */
  changesAt: string | null;
}

/** Options for {@link buildLifecycleDocument}. */
export interface BuildLifecycleDocumentOptions {
  versions: readonly LifecycleVersion[];
  clock: Clock;
  /** Defaults to `public`. */
  audience?: Audience;
}

/**
 * Build the public lifecycle document, oldest release first. It holds no generation time, so it
 * stays byte-identical (and cacheable) until `changesAt`.
 *
 * @example
 * ```ts
 * const doc = buildLifecycleDocument({ versions, clock });
 * doc.versions[0]; // { name: 'v1', state: 'sunset_window', status: 'ending_soon', ... }
 * ```
 */
export function buildLifecycleDocument(options: BuildLifecycleDocumentOptions): LifecycleDocument {
  const { clock, versions } = options;
  const ordered = [...versions].sort((a, b) => a.releasedAt - b.releasedAt);
  const entries = ordered.map((version): LifecycleDocumentEntry => {
    const { schedule } = version;
    return {
      name: version.name,
      state: stateAt({ schedule, clock }),
      status: checkDeprecationStatus({ schedule, clock }).status,
      releasedAt: formatIsoInstant(version.releasedAt),
      deprecatedAt: schedule ? formatIsoInstant(schedule.deprecatedAt) : null,
      sunsetAt: schedule ? formatIsoInstant(schedule.sunsetAt) : null,
      replacement: schedule
        ? (resolveReplacement({ version: version.name, versions }) ?? version.replacement ?? null)
        : null,
      migrationUrl: version.migrationUrl ?? null,
      openapiUrl: version.openapiUrl ?? null,
    };
  });
  const now = clock.now();
  const changesAt = earliest(versions.map((v) => nextLifecycleChange({ schedule: v.schedule, now })));
  const audience = options.audience ?? 'public';
  return {
    versions: entries,
    policy: {
      audience,
      minimumNoticeDays: minimumNoticeMs(audience) / DAY_MS,
      endingSoonAfterDays: ENDING_SOON_AFTER_MS / DAY_MS,
      warningDays: WARNING_WINDOW_MS / DAY_MS,
    },
    changesAt: changesAt === undefined ? null : formatIsoInstant(changesAt),
  };
}

/** {@link buildLifecycleDocument}, where a stand-in release date (`undated`) only keeps the declared order: a client is never shown one. */
export function undatedLifecycleDocument(
  options: BuildLifecycleDocumentOptions & { undated: ReadonlySet<string> },
): LifecycleDocument {
  const document = buildLifecycleDocument(options);
  const versions = document.versions.map((v) => (options.undated.has(v.name) ? { ...v, releasedAt: null } : v));
  return { ...document, versions };
}
