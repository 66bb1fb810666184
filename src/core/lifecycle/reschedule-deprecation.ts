import type { Clock } from '../clock/index.ts';
import { ErrorCode, type VersionaryError } from '../errors/index.ts';
import { checkBreakingSpacing } from './breaking-spacing.ts';
import { stateAt } from './lifecycle-state.ts';
import type { LifecycleVersion, Audience, DeprecationReason, DeprecationSchedule } from './schedule.ts';
import { PolicyRule, createViolation, toPolicyError } from './policy-report.ts';
import { checkReplacementExists, checkVersionKnown } from './replacement-rule.ts';
import type { ScheduledDeprecation } from './schedule-deprecation.ts';
import { readScheduleRequest } from './schedule-input.ts';
import { checkConcreteSunset, checkNoticePeriod, checkSunsetOrder } from './schedule-rules.ts';
import { formatIsoDate } from '../time/index.ts';

/** Options for {@link rescheduleDeprecation}. */
export interface RescheduleDeprecationOptions {
  version: string;
  /** Epoch milliseconds or ISO 8601; defaults to the current sunset. Give this or `noticeMonths`, not both. */
  sunsetAt?: number | string;
  /** Months of 30 days from the deprecation to the new sunset. */
  noticeMonths?: number;
  /** Defaults to the current deprecation date, which clients have already been told. */
  deprecatedAt?: number | string;
  /** Defaults to `planned`. Only a `critical-fix` may bring the sunset closer than the notice period allows. */
  reason?: DeprecationReason;
  /** The version clients should move to; must be newer and not deprecated. */
  replacement?: string;
  /** Every published version with its current schedule; the rescheduled one must have a schedule. */
  versions: readonly LifecycleVersion[];
  /** Defaults to `public` (6 months of notice); `enterprise` needs 12. */
  audience?: Audience;
  clock: Clock;
}

/** Result of {@link rescheduleDeprecation}: the new schedule, the one it replaces, and warnings. */
export interface RescheduledDeprecation extends ScheduledDeprecation {
  previous: DeprecationSchedule;
}

/**
 * Move the dates of a version that is already deprecated (state `deprecated` or `sunset_window`).
 * A later sunset is always allowed: it only gives clients more time. An earlier one must still
 * give the audience's full notice, counted from now, since clients only learn of it now (a
 * `critical-fix` needs no notice period but must name its date). A deprecation date that has passed cannot
 * move into the future, and a removed version cannot be rescheduled. Every violation is thrown
 * together; nothing is adjusted.
 *
 * @example
 * ```ts
 * const { schedule } = rescheduleDeprecation({ version: 'v1', sunsetAt: '2027-12-31', versions, clock });
 * ```
 */
export function rescheduleDeprecation(options: RescheduleDeprecationOptions): RescheduledDeprecation {
  const { version, versions, clock } = options;
  const now = clock.now();
  const subject = `rescheduling of ${version}`;
  const known = checkVersionKnown({ version, versions });
  if (known) throw known;
  const previous = versions.find((v) => v.name === version)?.schedule;
  const state = stateAt({ schedule: previous, clock });
  const refused = (message: string) =>
    createViolation({
      code: ErrorCode.InvalidSchedule,
      rule: PolicyRule.LifecycleTransition,
      message,
      extensions: { version, state, event: 'reschedule-deprecation' },
    });
  if (!previous || state === 'removed')
    throw refused(
      state === 'active'
        ? `${version} is not deprecated, so there is nothing to reschedule; deprecate it with scheduleDeprecation.`
        : `${version} is removed, and the lifecycle has no way out of Removed; publish a new version instead.`,
    );

  const schedule = readScheduleRequest(options, { ...previous, subject });
  const { deprecatedAt, sunsetAt } = schedule;

  const violations = [
    state === 'sunset_window' && deprecatedAt > now
      ? refused(
          `${previous.version} has been deprecated since ${formatIsoDate(previous.deprecatedAt)}; ` +
            `its deprecation cannot move into the future (${formatIsoDate(deprecatedAt)}), which would take it back out of its sunset window.`,
        )
      : undefined,
    checkSunsetOrder(schedule),
    checkConcreteSunset({ schedule, sunsetNamed: options.noticeMonths === undefined }),
    // A later sunset never shortens anyone's notice; an earlier one is news, so notice counts from now.
    sunsetAt < previous.sunsetAt
      ? checkNoticePeriod({ schedule, audience: options.audience ?? 'public', announcedAt: now })
      : undefined,
    checkReplacementExists({ version, versions, replacement: options.replacement }),
  ].filter((v): v is VersionaryError => v !== undefined);
  const policy = toPolicyError(violations, { subject });
  if (policy) throw policy;
  return { schedule, previous, warnings: checkBreakingSpacing(versions) };
}
