import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { clockPart, DAY_MS, daysFromCivil, pad, toCivil } from './civil.ts';
import { formatIsoInstant } from './iso-instant.ts';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const HTTP_DATE = /^(?:[a-z]{3}, )?(\d{1,2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;

/**
 * Format epoch milliseconds as an HTTP IMF-fixdate (RFC 9110 section 5.6.7), as RFC 8594 wants
 * for `Sunset`. Sub-second precision is dropped, as the format has none.
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
 * Parse the IMF-fixdate form the `Sunset` header uses (RFC 8594, RFC 9110), `Fri, 01 Jan 2027
 * 00:00:00 GMT`, weekday optional and case ignored; `undefined` for anything else.
 */
export function parseImfFixdate(text: string): number | undefined {
  const m = HTTP_DATE.exec(text);
  if (m === null) return undefined;
  const [day, month, year, hour, minute, second] = [
    Number(m[1]),
    MONTHS.findIndex((name) => name.toLowerCase() === (m[2] ?? '').toLowerCase()) + 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
  ];
  if (month === 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  return daysFromCivil({ year, month, day }) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000;
}
