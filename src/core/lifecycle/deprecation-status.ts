import type { Clock } from '../clock/index.ts';
import { ENDING_SOON_AFTER_MS } from './durations.ts';
import type { DeprecationSchedule } from './schedule.ts';

/** The outcome of the spec's deprecation status check. */
export type DeprecationStatus = 'not_deprecated' | 'deprecated' | 'ending_soon' | 'removed';

/** Options for {@link checkDeprecationStatus}. */
export interface CheckDeprecationStatusOptions {
  schedule: DeprecationSchedule | undefined;
  clock: Clock;
}

/** Result of {@link checkDeprecationStatus}. */
export interface DeprecationStatusResult {
  status: DeprecationStatus;
  /** The schedule as it must be stored from now on (a new object when the removed flag was set). */
  schedule: DeprecationSchedule | undefined;
  /** True only when this check set the removed flag: the caller must persist `schedule`. */
  flaggedRemoved: boolean;
}

/**
 * Compute a version's status in the spec's order: not registered, flagged removed, past sunset
 * (which sets the removed flag), more than 30 days after deprecation, otherwise deprecated.
 * Pure: the input schedule is never mutated.
 *
 * @example
 * ```ts
 * const { status, schedule, flaggedRemoved } = checkDeprecationStatus({ schedule: stored, clock });
 * if (flaggedRemoved) await repository.save(schedule);
 * ```
 */
export function checkDeprecationStatus(options: CheckDeprecationStatusOptions): DeprecationStatusResult {
  const { schedule } = options;
  if (!schedule) return { status: 'not_deprecated', schedule, flaggedRemoved: false };
  if (schedule.removed) return { status: 'removed', schedule, flaggedRemoved: false };
  const now = options.clock.now();
  if (now > schedule.sunsetAt) {
    return { status: 'removed', schedule: { ...schedule, removed: true }, flaggedRemoved: true };
  }
  const status = now - schedule.deprecatedAt > ENDING_SOON_AFTER_MS ? 'ending_soon' : 'deprecated';
  return { status, schedule, flaggedRemoved: false };
}

interface NextLifecycleChangeOptions {
  schedule: DeprecationSchedule | undefined;
  /** Epoch milliseconds. */
  now: number;
}

/** The first instant after `now` at which a version's state or status changes by time alone. */
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
