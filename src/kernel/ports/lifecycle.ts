import type { DeprecationSchedule, EndpointLifecycle, LifecycleVersion } from '../../core/lifecycle/index.ts';

/** The cap on extended access and the closing to new clients of a stored deprecation. */
export type { DeprecationDates } from '../../core/lifecycle/index.ts';

/** A stored version deprecation, with the guide it links to. */
export interface StoredSchedule extends DeprecationSchedule {
  migrationUrl: string | null;
  /**
   * The config file's entry as a start last applied it. A save without one keeps the stored one:
   * a change through the management API does not make the file's entry new again.
   */
  configFingerprint?: string;
}

/**
 * A deprecated endpoint within a version: the lifecycle schema's endpoint entry (its cap on
 * extended access and its closing to new clients included), dated, with its guide or `null`.
 */
export type EndpointDeprecation = Omit<EndpointLifecycle, 'deprecatedAt' | 'migrationUrl'> & {
  deprecatedAt: number;
  migrationUrl: string | null;
};

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
