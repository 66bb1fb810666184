/**
 * Why a deprecation was scheduled. `critical-fix` may give less notice than the audience needs,
 * but must still name a concrete sunset date.
 */
export type DeprecationReason = 'planned' | 'critical-fix';

/** Who consumes the API; it sets the minimum notice period (6 or 12 months). */
export type Audience = 'public' | 'enterprise';

/**
 * The registered deprecation of one version (or endpoint): all instants are epoch milliseconds.
 * A version without a schedule is not deprecated.
 */
export interface DeprecationSchedule {
  version: string;
  deprecatedAt: number;
  sunsetAt: number;
  /** Set once the sunset has passed (status check order 3) or by an operator; never unset. */
  removed: boolean;
  reason: DeprecationReason;
  /** The cap on per-client extended access after the sunset; without it no extension can be granted. */
  extendedAccessUntil?: number;
  /** From this instant, clients that had not called the subject before get a 403. */
  closedToNewClientsAt?: number;
}
