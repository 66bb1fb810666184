import { ErrorCode } from '../errors/index.ts';
import type { VersionaryError } from '../errors/index.ts';
import { PolicyRule, createViolation } from './policy-report.ts';
import { parseIsoInstant } from '../time/index.ts';

interface ReadScheduleInstantOptions {
  value: number | string;
  field: string;
  /** Where a violation (rule `schedule-input`) is pushed, so every problem is reported at once. */
  errors: VersionaryError[];
}

/** A scheduling date; a bad one pushes a `schedule-input` violation and reads as `NaN`, so the other rules still run. */
export function readScheduleInstant(options: ReadScheduleInstantOptions): number {
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
export function readNoticeMonths(options: ReadNoticeMonthsOptions): number {
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
