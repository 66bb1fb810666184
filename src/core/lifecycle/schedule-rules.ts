import { ErrorCode } from '../errors/index.ts';
import type { VersionaryError } from '../errors/index.ts';
import { DAY_MS, formatDays, monthsToMs } from './durations.ts';
import { PolicyRule, createViolation } from './policy-report.ts';
import type { Audience, DeprecationSchedule } from './schedule.ts';
import { formatIsoDate } from '../time/index.ts';

const MINIMUM_NOTICE_MONTHS: Record<Audience, number> = { public: 6, enterprise: 12 };

/** The minimum notice before sunset for an audience. */
export function minimumNoticeMs(audience: Audience): number {
  return monthsToMs(MINIMUM_NOTICE_MONTHS[audience]);
}

interface CheckNoticePeriodOptions {
  schedule: DeprecationSchedule;
  audience: Audience;
  /** When clients first hear of it; a backdated deprecation gives notice only from here. */
  announcedAt?: number;
}

/** Rule `notice-period`, from when the notice starts; a `critical-fix` needs none. */
export function checkNoticePeriod(options: CheckNoticePeriodOptions): VersionaryError | undefined {
  const { schedule, audience } = options;
  if (schedule.reason === 'critical-fix' || !Number.isFinite(schedule.sunsetAt)) return undefined;
  const noticeStart = Math.max(schedule.deprecatedAt, options.announcedAt ?? schedule.deprecatedAt);
  if (!Number.isFinite(noticeStart)) return undefined;
  const given = schedule.sunsetAt - noticeStart;
  const required = minimumNoticeMs(audience);
  if (given >= required) return undefined;
  return createViolation({
    rule: PolicyRule.NoticePeriod,
    message:
      `${audience} APIs need at least ${formatDays(required)} days of notice before sunset; ` +
      `${schedule.version} gives ${formatDays(given)} days (${formatIsoDate(noticeStart)} → ${formatIsoDate(schedule.sunsetAt)}).`,
    extensions: {
      version: schedule.version,
      audience,
      requiredDays: required / DAY_MS,
      givenDays: given / DAY_MS,
      noticeStart,
      sunsetAt: schedule.sunsetAt,
    },
  });
}

interface CheckConcreteSunsetOptions {
  schedule: DeprecationSchedule;
  /** False when the sunset was derived from a notice period rather than named by the caller. */
  sunsetNamed?: boolean;
}

/** Rule `concrete-sunset`: a real sunset, named explicitly by a `critical-fix` (which may shorten the notice). */
export function checkConcreteSunset(options: CheckConcreteSunsetOptions): VersionaryError | undefined {
  const { schedule } = options;
  const extensions = { version: schedule.version, reason: schedule.reason };
  if (!Number.isFinite(schedule.sunsetAt)) {
    return createViolation({
      rule: PolicyRule.ConcreteSunset,
      message: `${schedule.version} has no concrete sunset date (got ${String(schedule.sunsetAt)}); a vague announcement is non-conforming.`,
      extensions,
    });
  }
  if (schedule.reason === 'critical-fix' && options.sunsetNamed === false) {
    return createViolation({
      rule: PolicyRule.ConcreteSunset,
      message: `a critical-fix deprecation may give less notice but must name its sunset date; ${schedule.version} names none.`,
      extensions,
    });
  }
  return undefined;
}

/** Rule `sunset-order`: a real deprecation time, and the sunset never before it. */
export function checkSunsetOrder(schedule: DeprecationSchedule): VersionaryError | undefined {
  if (!Number.isFinite(schedule.deprecatedAt)) {
    return createViolation({
      code: ErrorCode.InvalidSchedule,
      rule: PolicyRule.SunsetOrder,
      message: `${schedule.version} has no valid deprecation time (got ${String(schedule.deprecatedAt)}).`,
      extensions: { version: schedule.version },
    });
  }
  if (!(schedule.sunsetAt < schedule.deprecatedAt)) return undefined;
  return createViolation({
    code: ErrorCode.InvalidSchedule,
    rule: PolicyRule.SunsetOrder,
    message:
      `the sunset of ${schedule.version} (${formatIsoDate(schedule.sunsetAt)}) is ` +
      `${formatDays(schedule.deprecatedAt - schedule.sunsetAt)} days before its deprecation (${formatIsoDate(schedule.deprecatedAt)}).`,
    extensions: { version: schedule.version, deprecatedAt: schedule.deprecatedAt, sunsetAt: schedule.sunsetAt },
  });
}
