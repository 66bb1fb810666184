import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { daysFromCivil, isLeapYear, toCivil } from '../lifecycle/time-format.ts';

const DAY_MS = 86_400_000;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Parse an ISO 8601 date or date-time into epoch milliseconds (UTC when no offset is given).
 * Core may not read the `Date` global, so the calendar arithmetic is done here.
 *
 * @example
 * ```ts
 * parseIsoInstant('2026-01-31'); // 1769817600000
 * ```
 */
export function parseIsoInstant(text: string): number {
  const m = ISO.exec(text.trim());
  if (m === null) throw invalid(text);
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) =>
    v === undefined ? undefined : Number(v),
  ) as number[];
  if (
    month! < 1 ||
    month! > 12 ||
    day! < 1 ||
    day! > daysInMonth(year!, month!) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    throw invalid(text);
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const offset = parseOffset(m[8]);
  return (
    daysFromCivil({ year: year!, month: month!, day: day! }) * DAY_MS +
    ((hour * 60 + minute) * 60 + second) * 1000 +
    millis -
    offset
  );
}

/**
 * Format epoch milliseconds as an ISO 8601 UTC date-time (`2026-07-30T00:00:00Z`).
 *
 * @example
 * ```ts
 * formatIsoInstant(0); // '1970-01-01T00:00:00Z'
 * ```
 */
export function formatIsoInstant(ms: number): string {
  const t = toCivil(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = t.millisecond === 0 ? '' : `.${pad(t.millisecond, 3)}`;
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${frac}Z`;
}

/**
 * Add whole days to an instant.
 *
 * @example
 * ```ts
 * addDays(0, 180) === 180 * 86_400_000; // true
 * ```
 */
export function addDays(ms: number, days: number): number {
  return ms + days * DAY_MS;
}

function parseOffset(text: string | undefined): number {
  if (text === undefined || text.toUpperCase() === 'Z') return 0;
  const sign = text.startsWith('-') ? -1 : 1;
  const digits = text.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function invalid(text: string): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.InvalidSchedule,
    detail: `"${text}" is not an ISO 8601 date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ).`,
  });
}
