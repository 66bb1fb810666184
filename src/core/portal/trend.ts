import { DAY_MS } from '../lifecycle/index.ts';

/** A count for one UTC day; `day` is that day's midnight in epoch milliseconds. */
export interface DailyCount {
  day: number;
  count: number;
}

/** The UTC midnight at or before an instant. */
export function startOfDay(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/**
 * One count per day from `from` to `to` (both UTC midnights, inclusive): days missing from the
 * input count zero, so a client that stopped calling shows as zeros, not as a gap.
 */
export function fillDays(options: { counts: readonly DailyCount[]; from: number; to: number }): DailyCount[] {
  const byDay = new Map<number, number>();
  for (const c of options.counts) byDay.set(startOfDay(c.day), (byDay.get(startOfDay(c.day)) ?? 0) + c.count);
  const days: DailyCount[] = [];
  for (let day = startOfDay(options.from); day <= options.to; day += DAY_MS)
    days.push({ day, count: byDay.get(day) ?? 0 });
  return days;
}

/**
 * The least-squares line through a daily series: its slope per day and its value at the first
 * day. A single point (or none) has slope 0.
 */
export function fitLine(series: readonly DailyCount[]): { slopePerDay: number; intercept: number } {
  const n = series.length;
  if (n === 0) return { slopePerDay: 0, intercept: 0 };
  const meanX = (n - 1) / 2;
  const meanY = series.reduce((sum, p) => sum + p.count, 0) / n;
  let num = 0;
  let den = 0;
  series.forEach((p, x) => {
    num += (x - meanX) * (p.count - meanY);
    den += (x - meanX) ** 2;
  });
  const slopePerDay = den === 0 ? 0 : num / den;
  return { slopePerDay, intercept: meanY - slopePerDay * meanX };
}
