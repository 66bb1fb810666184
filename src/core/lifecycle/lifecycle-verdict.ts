import type { Clock } from '../clock/index.ts';
import type { VersionaryError } from '../errors/index.ts';
import { removedProblem } from '../rulebook/problems.ts';
import { deprecationHeaders, type DeprecationHeaderStyle } from './deprecation-headers.ts';
import { checkDeprecationStatus } from './deprecation-status.ts';
import type { DeprecationSchedule } from './schedule.ts';

/** What the lifecycle says about one (version, endpoint) at one instant. */
export interface LifecycleVerdict {
  headers: Record<string, string>;
  /** Calls are recorded for usage monitoring. */
  deprecated: boolean;
  /** The sunset instant that applies, when deprecated. */
  sunsetAt?: number;
  /** When the schedule that applies was deprecated: quoted in served documents. */
  deprecatedAt?: number;
  /** The migration guide of the schedule that applies: quoted in served documents. */
  migrationUrl?: string;
  /** The version clients should move to, when there is one. */
  replacement?: string;
  /** Set after the sunset: the request is refused with it. */
  removed?: VersionaryError;
  /**
   * Set when some client may be answered otherwise (a grant past the sunset, a closing to
   * new clients): the source's `clientVerdict` decides per client. Unset for nearly every key,
   * so that the common request pays nothing.
   */
  perClient?: true;
}

/** One schedule that may apply to a request: the version's own, or an endpoint's within it. */
export interface VerdictCandidate {
  schedule: DeprecationSchedule;
  migrationUrl: string;
  /** Set for an endpoint deprecation, e.g. `GET /books/{id} in v1`. */
  subject?: string;
}

/** Options for {@link evaluateVerdict}. */
export interface EvaluateVerdictOptions {
  version: string;
  /** The version's own schedule first, when it has one, then endpoint deprecations. */
  candidates: VerdictCandidate[];
  clock: Clock;
  /** Where the API lives: the lifecycle document and successor links hang below it. */
  prefix: string;
  replacement?: string;
  style?: DeprecationHeaderStyle;
  /** 410 (the default) or 404 for removed versions and endpoints. */
  removedStatus?: 410 | 404;
}

/**
 * Evaluate the lifecycle for one request: no candidate means no headers; a removed candidate
 * refuses the request (with the headers still set); otherwise the earliest sunset speaks, since it
 * is the first to bite. `until` says how long the verdict holds by time alone, so callers can cache.
 *
 * @example
 * ```ts
 * const { verdict, until } = evaluateVerdict({ version: 'v1', candidates, clock, prefix: '/api', replacement: 'v2' });
 * if (verdict.removed) throw verdict.removed;
 * ```
 */
export function evaluateVerdict(options: EvaluateVerdictOptions): { verdict: LifecycleVerdict; until: number } {
  const { candidates, clock, prefix, replacement } = options;
  if (candidates.length === 0) return { verdict: { headers: {}, deprecated: false }, until: Number.POSITIVE_INFINITY };
  const statuses = candidates.map((c) => ({ c, status: checkDeprecationStatus({ schedule: c.schedule, clock }) }));
  const removedOne = statuses.find((s) => s.status.status === 'removed');
  const { c: chosen, status } =
    removedOne ?? [...statuses].sort((a, b) => a.c.schedule.sunsetAt - b.c.schedule.sunsetAt)[0]!;
  const { headers, changesAt } = deprecationHeaders({
    schedule: chosen.schedule,
    clock,
    style: options.style ?? 'iso8601',
    migrationUrl: chosen.migrationUrl,
    sunsetUrl: `${prefix}/versions`,
    ...(replacement ? { replacement, successorUrl: `${prefix}/${replacement}/openapi.json` } : {}),
    ...(chosen.subject ? { subject: chosen.subject } : {}),
  });
  const verdict: LifecycleVerdict = {
    headers,
    deprecated: true,
    sunsetAt: chosen.schedule.sunsetAt,
    deprecatedAt: chosen.schedule.deprecatedAt,
    migrationUrl: chosen.migrationUrl,
    ...(replacement ? { replacement } : {}),
  };
  if (status.status === 'removed') {
    verdict.removed = removedProblem({
      subject: chosen.subject ?? options.version,
      sunsetAt: chosen.schedule.sunsetAt,
      replacement,
      guide: chosen.migrationUrl,
      status: options.removedStatus ?? 410,
    });
  }
  return {
    verdict,
    until: status.status === 'removed' ? Number.POSITIVE_INFINITY : (changesAt ?? Number.POSITIVE_INFINITY),
  };
}
