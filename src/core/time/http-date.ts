import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { clockPart, DAY_MS, daysFromCivil, pad, toCivil } from './civil.ts';
import { formatIsoInstant } from './iso-instant.ts';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const HTTP_DATE = /^(?:[a-z]{3}, )?(\d{1,2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;

/** Epoch milliseconds as an IMF-fixdate (RFC 9110 §5.6.7), for RFC 8594's `Sunset`; no sub-seconds. */
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

/** An IMF-fixdate (`Fri, 01 Jan 2027 00:00:00 GMT`, weekday optional, any case), else `undefined`. */
export function parseImfFixdate(text: string): number | undefined {
  const m = HTTP_DATE.exec(text);
  if (m === null) return undefined;
  const month = MONTHS.findIndex((name) => name.toLowerCase() === (m[2] ?? '').toLowerCase()) + 1;
  const [day, year, hour, minute, second] = [Number(m[1]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])];
  if (month === 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  return daysFromCivil({ year, month, day }) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000;
}
