import { DAY_MS } from '../time/index.ts';

// A day is calendar arithmetic, so it lives in core/time; lifecycle windows are built from it.
export { DAY_MS };

/** One notice month: the spec counts exactly 30 days, so calendar months never leak into schedules. */
export const MONTH_MS = 30 * DAY_MS;

/** How long after its deprecation time a version counts as `ending_soon` (status check order 4). */
export const ENDING_SOON_AFTER_MS = 30 * DAY_MS;

/** The `Warning` header appears once fewer than this many milliseconds remain before sunset. */
export const WARNING_WINDOW_MS = 30 * DAY_MS;

/** Convert notice months (30 days each) to milliseconds. */
export function monthsToMs(months: number): number {
  return months * MONTH_MS;
}

/** Render a duration as a day count for messages: whole days plainly, fractions to two places. */
export function formatDays(ms: number): string {
  const days = ms / DAY_MS;
  return Number.isInteger(days) ? String(days) : String(Math.round(days * 100) / 100);
}
