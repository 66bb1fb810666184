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
