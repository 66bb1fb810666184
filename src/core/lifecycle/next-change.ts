import { ENDING_SOON_AFTER_MS } from './durations.ts';
import type { DeprecationSchedule } from './schedule.ts';

interface NextLifecycleChangeOptions {
  schedule: DeprecationSchedule | undefined;
  /** Epoch milliseconds. */
  now: number;
}

/**
 * The first instant after `now` at which the state or status of a version changes by time
 * alone: the deprecation date passing, the 30-day `ending_soon` mark, or the sunset passing.
 * `undefined` when nothing more will happen without a new schedule.
 */
export function nextLifecycleChange(options: NextLifecycleChangeOptions): number | undefined {
  const { schedule, now } = options;
  if (!schedule || schedule.removed) return undefined;
  // Each date "passes" strictly after its instant, so the change lands one millisecond later.
  const marks = [schedule.deprecatedAt, schedule.deprecatedAt + ENDING_SOON_AFTER_MS, schedule.sunsetAt]
    .map((mark) => mark + 1)
    .filter((mark) => mark > now && mark <= schedule.sunsetAt + 1);
  return marks.length === 0 ? undefined : Math.min(...marks);
}

/** The earliest of several optional instants, for combining cache horizons. */
export function earliest(instants: ReadonlyArray<number | undefined>): number | undefined {
  return instants.reduce<number | undefined>(
    (min, value) => (value === undefined || (min !== undefined && min <= value) ? min : value),
    undefined,
  );
}
