import type { DeprecationSchedule, LifecycleVersion } from '../../core/lifecycle/index.ts';

/** A stored version deprecation, with the guide it links to. */
export interface StoredSchedule extends DeprecationSchedule {
  migrationUrl: string | null;
  /**
   * The config file's entry as a start last applied it. A save without one keeps the stored one:
   * a change through the management API does not make the file's entry new again.
   */
  configFingerprint?: string;
}

/** A deprecated endpoint within a version. */
export interface EndpointDeprecation {
  version: string;
  method: string;
  /** Route template below the version prefix, e.g. `/users/{id}/posts`. */
  path: string;
  deprecatedAt: number;
  sunsetAt: number;
  migrationUrl: string | null;
  /** The cap on per-client extended access after the sunset. */
  extendedAccessUntil?: number;
  /** From this instant, clients that had not called the endpoint before get a 403. */
  closedToNewClientsAt?: number;
}

/** Where scheduled lifecycle state lives, shared by every instance on the same database. */
export interface LifecycleStore {
  listSchedules(): Promise<StoredSchedule[]>;
  saveSchedule(schedule: StoredSchedule): Promise<void>;
  listEndpointDeprecations(): Promise<EndpointDeprecation[]>;
  saveEndpointDeprecation(deprecation: EndpointDeprecation): Promise<void>;
}

/**
 * What operations read of the live lifecycle (the versions and their schedules, for the sunset
 * gauge) and how they reload it when the change feed says the store moved.
 */
export interface LiveLifecycle {
  versions(): LifecycleVersion[];
  /** Replace state from the store, after a write on any instance. */
  refresh(): Promise<void>;
}
