import type { Clock } from '../clock/index.ts';
import { checkSchedulePolicy } from './check-schedule-policy.ts';
import type { LifecycleVersion, Audience, DeprecationReason, DeprecationSchedule } from './schedule.ts';
import { toPolicyError, type PolicyWarning } from './policy-report.ts';
import { readScheduleRequest } from './schedule-input.ts';

export interface ScheduleDeprecationOptions {
  version: string;
  /** Notice in months of 30 days; defaults to 6. Give this or `sunsetAt`, not both. */
  noticeMonths?: number;
  /** Epoch milliseconds or ISO 8601; defaults to now. */
  deprecatedAt?: number | string;
  /** Epoch milliseconds or ISO 8601; defaults to the deprecation time plus the notice. */
  sunsetAt?: number | string;
  /** Defaults to `planned`. */
  reason?: DeprecationReason;
  /** The version clients should move to; must be newer and not deprecated. */
  replacement?: string;
  /** Every published version with its current schedule, for the replacement and state rules. */
  versions: readonly LifecycleVersion[];
  /** Defaults to `public` (6 months of notice); `enterprise` needs 12. */
  audience?: Audience;
  clock: Clock;
}

export interface ScheduledDeprecation {
  schedule: DeprecationSchedule;
  /** Rules bent but not broken (for example breaking releases spaced under 12 months). */
  warnings: PolicyWarning[];
}

/**
 * Schedule a deprecation: deprecation at now (or the given time), sunset after the notice period
 * (or at the given date), removed flag false. Every policy rule is checked first, and all
 * violations are thrown together; nothing is ever silently adjusted.
 *
 * Given only a notice period (no dates), this is the spec's scheduling, for an active and an
 * already deprecated version alike: the deprecation is announced anew from now. Moving the dates
 * of a deprecated version is {@link rescheduleDeprecation}'s job.
 *
 * @example
 * ```ts
 * const { schedule } = scheduleDeprecation({ version: 'v1', versions, clock });
 * // schedule.sunsetAt === clock.now() + 180 days
 * ```
 */
export function scheduleDeprecation(options: ScheduleDeprecationOptions): ScheduledDeprecation {
  const now = options.clock.now();
  const schedule = readScheduleRequest(options, { deprecatedAt: now, subject: `deprecation of ${options.version}` });
  const report = checkSchedulePolicy({
    schedule,
    versions: options.versions,
    audience: options.audience,
    replacement: options.replacement,
    announcedAt: now,
    sunsetNamed: options.sunsetAt !== undefined,
    announcedAnew: options.deprecatedAt === undefined && options.sunsetAt === undefined,
  });
  const error = toPolicyError(report.violations, { subject: `deprecation of ${options.version}` });
  if (error) throw error;
  return { schedule, warnings: report.warnings };
}
