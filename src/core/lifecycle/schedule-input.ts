import { ErrorCode } from '../errors/index.ts';
import type { VersionaryError } from '../errors/index.ts';
import { monthsToMs } from './durations.ts';
import { PolicyRule, createViolation, toPolicyError } from './policy-report.ts';
import type { DeprecationReason, DeprecationSchedule } from './schedule.ts';
import { parseIsoInstant } from '../time/index.ts';

interface ReadScheduleInstantOptions {
  value: number | string;
  field: string;
  /** Where a violation (rule `schedule-input`) is pushed, so every problem is reported at once. */
  errors: VersionaryError[];
}

/** A scheduling date; a bad one pushes a `schedule-input` violation and reads as `NaN`, so the other rules still run. */
function readScheduleInstant(options: ReadScheduleInstantOptions): number {
  const { value, field } = options;
  const ms = typeof value === 'number' ? value : parseIsoInstant(value);
  if (ms !== undefined && Number.isFinite(ms)) return ms;
  options.errors.push(
    createViolation({
      code: ErrorCode.InvalidSchedule,
      rule: PolicyRule.ScheduleInput,
      message: `${field} must be epoch milliseconds or an ISO 8601 date with a time zone; got ${JSON.stringify(value)}.`,
      extensions: { field, value },
    }),
  );
  return Number.NaN;
}

interface ReadNoticeMonthsOptions {
  version: string;
  noticeMonths?: number;
  sunsetAt?: number | string;
  errors: VersionaryError[];
}

/** The notice in months (default 6), refusing a non-positive one or one given with `sunsetAt`. */
function readNoticeMonths(options: ReadNoticeMonthsOptions): number {
  const months = options.noticeMonths ?? 6;
  if (options.noticeMonths !== undefined && options.sunsetAt !== undefined) {
    options.errors.push(
      createViolation({
        code: ErrorCode.InvalidSchedule,
        rule: PolicyRule.ScheduleInput,
        message: `give either noticeMonths (${months}) or sunsetAt for ${options.version}, not both: they could disagree.`,
        extensions: { version: options.version },
      }),
    );
  }
  if (!Number.isFinite(months) || months <= 0) {
    options.errors.push(
      createViolation({
        code: ErrorCode.InvalidSchedule,
        rule: PolicyRule.ScheduleInput,
        message: `noticeMonths must be a positive number of 30-day months; got ${String(months)}.`,
        extensions: { version: options.version, noticeMonths: months },
      }),
    );
  }
  return months;
}

/**
 * The schedule a (re)scheduling call asks for, its dates read (`defaults` for those it leaves out;
 * without a default sunset, the notice sets it). Every input problem is thrown at once.
 */
export function readScheduleRequest(
  options: {
    version: string;
    deprecatedAt?: number | string;
    sunsetAt?: number | string;
    noticeMonths?: number;
    reason?: DeprecationReason;
  },
  at: { deprecatedAt: number; sunsetAt?: number; subject: string },
): DeprecationSchedule {
  const errors: VersionaryError[] = [];
  const read = (value: number | string, field: string) => readScheduleInstant({ value, field, errors });
  const deprecatedAt =
    options.deprecatedAt === undefined ? at.deprecatedAt : read(options.deprecatedAt, 'deprecatedAt');
  const notice = readNoticeMonths({ ...options, errors });
  const sunsetAt =
    options.sunsetAt !== undefined
      ? read(options.sunsetAt, 'sunsetAt')
      : at.sunsetAt === undefined || options.noticeMonths !== undefined
        ? deprecatedAt + monthsToMs(notice)
        : at.sunsetAt;
  const error = toPolicyError(errors, { subject: at.subject });
  if (error) throw error;
  return { version: options.version, deprecatedAt, sunsetAt, removed: false, reason: options.reason ?? 'planned' };
}
