import type { DeprecationDates } from './lifecycle-schema.ts';

/**
 * Why a deprecation was scheduled. `critical-fix` may give less notice than the audience needs,
 * but must still name a concrete sunset date.
 */
export type DeprecationReason = 'planned' | 'critical-fix';

/** Who consumes the API; it sets the minimum notice period (6 or 12 months). */
export type Audience = 'public' | 'enterprise';

/**
 * The registered deprecation of one version (or endpoint): all instants are epoch milliseconds.
 * A version without a schedule is not deprecated. The cap on extended access and the closing to
 * new clients are the lifecycle schema's (`DeprecationDates`).
 */
export interface DeprecationSchedule extends DeprecationDates {
  version: string;
  deprecatedAt: number;
  sunsetAt: number;
  /** Set once the sunset has passed (status check order 3) or by an operator; never unset. */
  removed: boolean;
  reason: DeprecationReason;
}
