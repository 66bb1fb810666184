import type { DeprecationSchedule } from '../../core/lifecycle/index.ts';

/** A stored version deprecation, with the guide it links to. */
export interface StoredSchedule extends DeprecationSchedule {
  migrationUrl: string | null;
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
}

/**
 * Where scheduled lifecycle state lives, shared by every instance on the same database.
 *
 * @example
 * ```ts
 * await lifecycle.saveSchedule(schedule);
 * ```
 */
export interface LifecycleStore {
  listSchedules(): Promise<StoredSchedule[]>;
  saveSchedule(schedule: StoredSchedule): Promise<void>;
  listEndpointDeprecations(): Promise<EndpointDeprecation[]>;
  saveEndpointDeprecation(deprecation: EndpointDeprecation): Promise<void>;
}

/** One recorded call to a deprecated or removed version or endpoint. */
export interface UsageCall {
  version: string;
  /** Method and route template, e.g. `GET /users/{id}`. */
  endpoint: string;
  clientId: string;
  at: number;
}

/** Per-version usage summary. */
export interface UsageSummary {
  calls: number;
  clients: number;
  endpoints: number;
}

/**
 * Where usage records go, in batches.
 *
 * @example
 * ```ts
 * await usage.insert(records);
 * ```
 */
export interface UsageStore {
  insert(records: UsageCall[]): Promise<void>;
  summary(version: string): Promise<UsageSummary>;
  list(options: { version: string; clientId?: string; limit: number; afterId: number }): Promise<{ items: Array<UsageCall & { id: number }>; nextAfter: number | null }>;
}
