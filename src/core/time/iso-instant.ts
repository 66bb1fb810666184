import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { clockPart, DAY_MS, daysFromCivil, daysInMonth, pad, toCivil } from './civil.ts';

// One grammar for every ISO 8601 text the project reads: a date (UTC midnight) or a date-time
// with `Z` or a `±HH:MM` offset. A date-time without an offset names no instant, so it is refused.
const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}:\d{2}))?$/;

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

/** Format epoch milliseconds as an ISO 8601 calendar date (`YYYY-MM-DD`, UTC), for messages. */
export function formatIsoDate(ms: number): string {
  return formatIsoInstant(ms).slice(0, -14);
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
  const [year, month, day, hour, minute, second] = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offset = parseOffset(zone);
  if (offset === undefined) return undefined;
  const millisecond = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const days = daysFromCivil({ year, month, day });
  return days * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond - offset;
}

/** {@link parseIsoInstant} of trimmed text that must be a date, else `INVALID_SCHEDULE`. */
export function assertIsoInstant(text: string): number {
  const ms = parseIsoInstant(text.trim());
  if (ms !== undefined) return ms;
  throw new VersionaryError({
    code: ErrorCode.InvalidSchedule,
    detail: `"${text}" is not an ISO 8601 date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ).`,
  });
}

/** Add whole days to an instant. */
export function addDays(ms: number, days: number): number {
  return ms + days * DAY_MS;
}

function parseOffset(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}
