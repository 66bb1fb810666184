import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { DAY_MS } from './durations.ts';

// Core may not touch the Date global, so civil dates come from Howard Hinnant's exact
// days-from-civil arithmetic (proleptic Gregorian calendar, UTC only).
const MAX_INSTANT_MS = 8.64e15;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}:\d{2}))?$/;

/**
 * A UTC calendar date and time of day, as produced by {@link toCivil}.
 *
 * @example
 * ```ts
 * const { year, month, day }: CivilTime = toCivil(clock.now());
 * ```
 */
export interface CivilTime {
  year: number;
  /** 1 to 12. */
  month: number;
  /** 1 to 31. */
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** 0 (Sunday) to 6 (Saturday). */
  weekday: number;
}

/**
 * Days since 1970-01-01 for a proleptic Gregorian date.
 *
 * @example
 * ```ts
 * daysFromCivil({ year: 2000, month: 3, day: 1 }); // 11017
 * ```
 */
export function daysFromCivil(date: { year: number; month: number; day: number }): number {
  const y = date.month <= 2 ? date.year - 1 : date.year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5) + date.day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * Split epoch milliseconds into UTC calendar fields.
 *
 * @example
 * ```ts
 * toCivil(0); // { year: 1970, month: 1, day: 1, hour: 0, ..., weekday: 4 }
 * ```
 */
export function toCivil(ms: number): CivilTime {
  const instant = assertInstant(ms);
  const days = Math.floor(instant / DAY_MS);
  const msOfDay = instant - days * DAY_MS;
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * mp + 2) / 5) + 1,
    hour: Math.floor(msOfDay / 3_600_000),
    minute: Math.floor(msOfDay / 60_000) % 60,
    second: Math.floor(msOfDay / 1000) % 60,
    millisecond: msOfDay % 1000,
    weekday: (((days + 4) % 7) + 7) % 7,
  };
}

/**
 * Format epoch milliseconds as an ISO 8601 UTC instant, identical to `Date#toISOString`
 * (six-digit signed years outside 0000 to 9999).
 *
 * @example
 * ```ts
 * formatIsoInstant(1_777_593_600_000); // '2026-05-01T00:00:00.000Z'
 * ```
 */
export function formatIsoInstant(ms: number): string {
  const t = toCivil(ms);
  const year = t.year >= 0 && t.year <= 9999 ? pad(t.year, 4) : (t.year < 0 ? '-' : '+') + pad(Math.abs(t.year), 6);
  return `${year}-${pad(t.month, 2)}-${pad(t.day, 2)}T${clockPart(t)}.${pad(t.millisecond, 3)}Z`;
}

/**
 * Format epoch milliseconds as an ISO 8601 calendar date (`YYYY-MM-DD`, UTC), for messages.
 *
 * @example
 * ```ts
 * formatIsoDate(1_777_593_600_000); // '2026-05-01'
 * ```
 */
export function formatIsoDate(ms: number): string {
  return formatIsoInstant(ms).slice(0, -14);
}

/**
 * Format epoch milliseconds as an HTTP IMF-fixdate (RFC 9110 section 5.6.7), as RFC 8594 wants
 * for `Sunset`. Sub-second precision is dropped, as the format has none.
 *
 * @example
 * ```ts
 * formatImfFixdate(1_777_593_600_000); // 'Fri, 01 May 2026 00:00:00 GMT'
 * ```
 */
export function formatImfFixdate(ms: number): string {
  const t = toCivil(ms);
  if (t.year < 0 || t.year > 9999) {
    throw new VersionaryError({
      code: ErrorCode.InvalidSchedule,
      detail: `IMF-fixdate has four-digit years only; ${formatIsoInstant(ms)} cannot be sent in an HTTP date header.`,
    });
  }
  return `${WEEKDAYS[t.weekday]}, ${pad(t.day, 2)} ${MONTHS[t.month - 1]} ${pad(t.year, 4)} ${clockPart(t)} GMT`;
}

/**
 * Parse an ISO 8601 date (`2026-05-01`, taken as UTC midnight) or date-time with `Z` or a numeric
 * offset into epoch milliseconds. Returns `undefined` for anything else, including impossible
 * dates such as `2026-02-29`; a date-time without an offset is refused because it names no instant.
 * An absent text (`null` or `undefined`, as in a document's unknown date) is `undefined` too.
 *
 * @example
 * ```ts
 * parseIsoInstant('2026-05-01T02:00:00+02:00'); // 1_777_593_600_000
 * parseIsoInstant('2026-13-01'); // undefined
 * ```
 */
export function parseIsoInstant(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined) return undefined;
  const match = ISO_PATTERN.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offset = parseOffset(zone);
  if (offset === undefined) return undefined;
  const millisecond = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const days = daysFromCivil({ year, month, day });
  return days * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond - offset;
}

/**
 * Whether a year has 29 February in the proleptic Gregorian calendar.
 *
 * @example
 * ```ts
 * isLeapYear(2000); // true
 * isLeapYear(2100); // false
 * ```
 */
export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function parseOffset(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

function assertInstant(ms: number): number {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_INSTANT_MS) {
    throw new VersionaryError({
      code: ErrorCode.InvalidSchedule,
      detail: `${String(ms)} is not an instant: expected finite epoch milliseconds within ±8.64e15.`,
    });
  }
  // Truncate like the ECMAScript TimeClip so fractional inputs format as Date would.
  return Math.trunc(ms) + 0;
}

function clockPart(t: CivilTime): string {
  return `${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
