import type { DeprecationSchedule } from './schedule.ts';

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
