import type { Clock } from '../clock/index.ts';
import { VersionaryError } from '../errors/index.ts';
import { checkBreakingSpacing } from './breaking-spacing.ts';
import { stateAt, transition } from './lifecycle-state.ts';
import { checkReplacementExists, checkVersionKnown } from './replacement-rule.ts';
import { checkConcreteSunset, checkNoticePeriod, checkSunsetOrder } from './schedule-rules.ts';
import type { LifecycleVersion, Audience, DeprecationReason, DeprecationSchedule } from './schedule.ts';
import { toPolicyError, type PolicyWarning } from './policy-report.ts';
import { readScheduleRequest } from './schedule-input.ts';

/** Options for {@link scheduleDeprecation}. */
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

/** Result of {@link scheduleDeprecation}. */
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
  const { version, versions } = options;
  const now = options.clock.now();
  const subject = `deprecation of ${version}`;
  const schedule = readScheduleRequest(options, { deprecatedAt: now, subject });
  const violations = [
    checkVersionKnown({ version, versions }),
    checkTransition({
      schedule,
      versions,
      at: now,
      // The spec's scheduling (a notice period, no dates) announces anew, so a deprecated version may take it.
      anew: options.deprecatedAt === undefined && options.sunsetAt === undefined,
    }),
    checkSunsetOrder(schedule),
    // A sunset that came from a default notice period is not named by the caller.
    checkConcreteSunset({ schedule, sunsetNamed: options.sunsetAt !== undefined }),
    // Notice counts from the scheduling call.
    checkNoticePeriod({ schedule, audience: options.audience ?? 'public', announcedAt: now }),
    checkReplacementExists({ version, versions, replacement: options.replacement }),
  ].filter((v): v is VersionaryError => v !== undefined);
  const error = toPolicyError(violations, { subject });
  if (error) throw error;
  return { schedule, warnings: checkBreakingSpacing(versions) };
}

/** The state at the scheduling call must allow a deprecation. */
function checkTransition(options: {
  schedule: DeprecationSchedule;
  versions: readonly LifecycleVersion[];
  at: number;
  anew: boolean;
}): VersionaryError | undefined {
  const current = options.versions.find((v) => v.name === options.schedule.version);
  if (!current) return undefined;
  const state = stateAt({ schedule: current.schedule, clock: { now: () => options.at } });
  if (options.anew && (state === 'deprecated' || state === 'sunset_window')) return undefined;
  try {
    transition(state, options.schedule.reason === 'critical-fix' ? 'critical-fix' : 'schedule-deprecation');
    return undefined;
  } catch (error) {
    if (state !== 'deprecated' && state !== 'sunset_window') return error as VersionaryError;
    const refused = error as VersionaryError;
    return new VersionaryError({
      code: refused.code,
      detail: `${refused.detail} To move its dates, use rescheduleDeprecation.`,
      extensions: refused.extensions,
    });
  }
}
