import { ErrorCode } from '../errors/index.ts';
import type { VersionaryError } from '../errors/index.ts';
import { monthsToMs } from './durations.ts';
import { PolicyRule, createViolation, toPolicyError } from './policy-report.ts';
import type { DeprecationReason, DeprecationSchedule } from './schedule.ts';
import { parseIsoInstant } from '../time/index.ts';

/**
 * The schedule a (re)scheduling call asks for, its dates read (`defaults` for those it leaves out;
 * without a default sunset, the notice sets it). Every input problem (rule `schedule-input`) is
 * thrown at once.
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
  const { version } = options;
  const errors: VersionaryError[] = [];
  const refuse = (message: string, extensions: Record<string, unknown>) =>
    errors.push(
      createViolation({ code: ErrorCode.InvalidSchedule, rule: PolicyRule.ScheduleInput, message, extensions }),
    );
  // A bad date is refused and reads as `NaN`, so the other rules still run.
  const read = (value: number | string, field: string) => {
    const ms = typeof value === 'number' ? value : parseIsoInstant(value);
    if (ms !== undefined && Number.isFinite(ms)) return ms;
    refuse(`${field} must be epoch milliseconds or an ISO 8601 date with a time zone; got ${JSON.stringify(value)}.`, {
      field,
      value,
    });
    return Number.NaN;
  };
  const deprecatedAt =
    options.deprecatedAt === undefined ? at.deprecatedAt : read(options.deprecatedAt, 'deprecatedAt');
  // The notice in months (default 6): a positive one, and not beside a `sunsetAt`.
  const notice = options.noticeMonths ?? 6;
  if (options.noticeMonths !== undefined && options.sunsetAt !== undefined)
    refuse(`give either noticeMonths (${notice}) or sunsetAt for ${version}, not both: they could disagree.`, {
      version,
    });
  if (!Number.isFinite(notice) || notice <= 0)
    refuse(`noticeMonths must be a positive number of 30-day months; got ${String(notice)}.`, {
      version,
      noticeMonths: notice,
    });
  const sunsetAt =
    options.sunsetAt !== undefined
      ? read(options.sunsetAt, 'sunsetAt')
      : at.sunsetAt === undefined || options.noticeMonths !== undefined
        ? deprecatedAt + monthsToMs(notice)
        : at.sunsetAt;
  const error = toPolicyError(errors, { subject: at.subject });
  if (error) throw error;
  return { version, deprecatedAt, sunsetAt, removed: false, reason: options.reason ?? 'planned' };
}
