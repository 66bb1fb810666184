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

/**
 * A published version as the lifecycle sees it. Structural on purpose, so the service can map
 * its own version definitions onto it without a dependency on this module's internals.
 */
export interface LifecycleVersion {
  name: string;
  /** Epoch milliseconds of the release; orders versions from older to newer. */
  releasedAt: number;
  /** Whether this release breaks its predecessor; defaults to true, as a new `v<n>` does. */
  breaking?: boolean;
  /** The registered deprecation, or absent while the version is current. */
  schedule?: DeprecationSchedule;
  /** The version clients should move to; defaults to the newest current newer version. */
  replacement?: string;
  migrationUrl?: string;
  openapiUrl?: string;
}
