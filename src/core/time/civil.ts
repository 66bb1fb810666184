import { ErrorCode, VersionaryError } from '../errors/index.ts';

// Core may not touch the Date global, so civil dates come from Howard Hinnant's exact
// days-from-civil arithmetic (proleptic Gregorian calendar, UTC only).

/** One day in milliseconds. */
export const DAY_MS = 86_400_000;

/** A UTC calendar date and time of day, as produced by {@link toCivil}. */
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

/** Days since 1970-01-01 for a proleptic Gregorian date. */
export function daysFromCivil(date: { year: number; month: number; day: number }): number {
  const y = date.month <= 2 ? date.year - 1 : date.year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5) + date.day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Split epoch milliseconds into UTC calendar fields; throws `INVALID_SCHEDULE` outside the Date range. */
export function toCivil(ms: number): CivilTime {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    throw new VersionaryError({
      code: ErrorCode.InvalidSchedule,
      detail: `${String(ms)} is not an instant: expected finite epoch milliseconds within ±8.64e15.`,
    });
  // Truncate like the ECMAScript TimeClip so fractional inputs format as Date would.
  const instant = Math.trunc(ms) + 0;
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
 * Whether a year has 29 February.
 * @internal exported for the tests
 */
export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** The number of days in a month (1 to 12) of a year. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Zero-pad a number to a width, for date fields. */
export function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** `HH:MM:SS` of a civil time. */
export function clockPart(t: CivilTime): string {
  return `${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}`;
}
