import { DAY_MS } from '../lifecycle/index.ts';

/** A count for one UTC day; `day` is that day's midnight in epoch milliseconds. */
export interface DailyCount {
  day: number;
  count: number;
}

/**
 * The UTC midnight at or before an instant.
 * @internal exported for the tests
 */
export function startOfDay(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** The last `days` UTC days up to the one of `now`: their first and last midnights. */
export function lastDays(now: number, days: number): { from: number; to: number } {
  const to = startOfDay(now);
  return { from: to - (days - 1) * DAY_MS, to };
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
 * @internal exported for the tests
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

/** Where a deprecated version or endpoint stands against its sunset. */
type BurnDownVerdict = 'done' | 'on_track' | 'late' | 'stalled';

/** The burn-down of one deprecated version or endpoint. */
export interface BurnDown {
  /** Distinct clients per day over the window, zero-filled. */
  series: DailyCount[];
  /** Slope of the fitted line, in clients per day (negative when falling). */
  slopePerDay: number;
  /** The day the fitted line reaches zero; absent when it is not falling. */
  projectedZeroAt?: number;
  sunsetAt: number;
  /** `done`: nobody called on the last day; `on_track`: zero before the sunset; `late`: after it; `stalled`: not falling. */
  verdict: BurnDownVerdict;
}

export interface ProjectBurnDownOptions {
  /** Distinct clients calling per day (days without calls may be left out). */
  daily: readonly DailyCount[];
  sunsetAt: number;
  now: number;
  /** Days shown and fitted, ending today (default 28). */
  windowDays?: number;
}

/**
 * Project when the last client stops calling: a least-squares line through the distinct clients
 * per day over the window, extended to zero and set against the sunset. A line is honest about
 * what it knows: one that does not fall projects nothing (`stalled`), however near the sunset.
 */
export function projectBurnDown(options: ProjectBurnDownOptions): BurnDown {
  const series = fillDays({ counts: options.daily, ...lastDays(options.now, options.windowDays ?? 28) });
  const fitted = fromFirstCall(series);
  const { slopePerDay, intercept } = fitLine(fitted);
  const base = { series, slopePerDay, sunsetAt: options.sunsetAt };
  if (series.at(-1)!.count === 0) return { ...base, verdict: 'done' };
  if (slopePerDay >= 0) return { ...base, verdict: 'stalled' };
  // The fitted line may already cross zero inside the window while today still has callers: then the projection is tomorrow.
  const zeroIndex = Math.max(-intercept / slopePerDay, fitted.length);
  const projectedZeroAt = fitted[0]!.day + Math.ceil(zeroIndex) * DAY_MS;
  return { ...base, projectedZeroAt, verdict: projectedZeroAt <= options.sunsetAt ? 'on_track' : 'late' };
}

/** A client still calling a deprecated version or endpoint, with its trend. */
export interface ClientTrend {
  clientId: string;
  calls: number;
  lastSeenDay: number;
  slopePerDay: number;
  /** Not falling: the client has not started to move and will break at the sunset. */
  atRisk: boolean;
}

/**
 * Rank the clients still calling by calls over the window, each with the trend of its daily calls;
 * a client whose calls are not falling (since its first call in the window) is at risk. Clients
 * silent over the whole window are left out.
 */
export function rankClients(options: {
  perClient: ReadonlyMap<string, readonly DailyCount[]>;
  now: number;
  windowDays?: number;
}): ClientTrend[] {
  const window = lastDays(options.now, options.windowDays ?? 28);
  const trends: ClientTrend[] = [];
  for (const [clientId, counts] of options.perClient) {
    const series = fillDays({ counts, ...window });
    const calls = series.reduce((sum, d) => sum + d.count, 0);
    if (calls === 0) continue;
    const { slopePerDay } = fitLine(fromFirstCall(series));
    const lastSeenDay = [...series].reverse().find((d) => d.count > 0)!.day;
    trends.push({ clientId, calls, lastSeenDay, slopePerDay, atRisk: slopePerDay >= 0 });
  }
  return trends.sort((a, b) => b.calls - a.calls || a.clientId.localeCompare(b.clientId));
}

// Fitted from the first day with calls: days before it say nothing about the trend (a client that began calling last week is judged on last week).
function fromFirstCall(series: DailyCount[]): DailyCount[] {
  const first = series.findIndex((d) => d.count > 0);
  return first === -1 ? series : series.slice(first);
}
