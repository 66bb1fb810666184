import type { Page, PageOptions } from './users.ts';

/** One recorded call to a deprecated or removed version or endpoint. */
export interface UsageCall {
  version: string;
  /** Method and route template, e.g. `GET /users/{id}`. */
  endpoint: string;
  /** The client the call is counted for: the key's client id when it has one, else the credential id (or `ip:<address>`). */
  clientId: string;
  /** The credential that made the call: an API key id, `jwt:<sub>` or `admin`. */
  keyId?: string;
  /** The request's `User-Agent`, truncated. */
  userAgent?: string;
  at: number;
  /** Set when the call used a deprecated field or query parameter: its name (`User.nickname`, `GET /users?order`). */
  element?: string;
}

/** Per-version usage summary. */
interface UsageSummary {
  calls: number;
  clients: number;
  endpoints: number;
}

/** Usage of one (client, version, endpoint, key) over a window. */
export interface ClientUsageRow {
  clientId: string;
  version: string;
  endpoint: string;
  /** Undefined for calls recorded without a credential id. */
  keyId?: string;
  calls: number;
  firstSeen: number;
  lastSeen: number;
  /** The User-Agent of the latest call; undefined when that call sent none. */
  userAgent?: string;
}

/** Usage of one client and version over a window of whole UTC days. */
type ClientTotalsRow = Omit<ClientUsageRow, 'endpoint' | 'keyId' | 'userAgent'>;

/** Usage of one UTC day and version (and client, when asked per client). */
interface DailyUsageRow {
  /** Start of the UTC day, epoch milliseconds. */
  day: number;
  version: string;
  clientId?: string;
  calls: number;
  clients: number;
}

/** Usage of one deprecated element (field or query parameter) of a version, over every call recorded. */
interface ElementUsageRow {
  version: string;
  /** `User.nickname`, `GET /users?order`. */
  element: string;
  calls: number;
  clients: number;
  endpoints: number;
  lastSeen: number;
}

/** One client's calls that used a deprecated element, per (element, version, endpoint). */
export type ClientElementUsageRow = Omit<ClientUsageRow, 'keyId' | 'userAgent'> & { element: string };

/** Calls of one (UTC hour, version, operation, client); every version is counted. */
export interface OperationCount {
  /** Start of the UTC hour, epoch milliseconds. */
  hour: number;
  version: string;
  /** Method and route template without the prefix or version, e.g. `GET /users/{id}`. */
  endpoint: string;
  clientId: string;
  calls: number;
  /** The latest call, epoch milliseconds. */
  lastSeen: number;
}

/** Calls of one (version, operation, client) over a window. */
export type OperationUsageRow = Omit<OperationCount, 'hour'>;

/** The calls a read counts: from `since` to before `until`, of one version or client when asked. */
export interface UsageWindow {
  since: number;
  until?: number;
  version?: string;
  clientId?: string;
}

/**
 * Where usage goes. Calls are folded into per-minute rollups keyed by (minute, version,
 * endpoint, client, key) with calls, first and last seen and the latest User-Agent, written in
 * batches with upserts; coarser rollups (per day, per client and day, totals) are kept beside
 * them, so summaries read a few rows whatever the volume.
 */
export interface UsageStore {
  /** With `keepRaw`, each call is kept as a raw event too (listed by {@link UsageStore.list}); rollups are always written. */
  insert(records: UsageCall[], options?: { keepRaw: boolean }): Promise<void>;
  /** Every call ever recorded for the version: calls, distinct clients, distinct endpoints. */
  summary(version: string): Promise<UsageSummary>;
  /** Usage per (client, version, endpoint, key) of calls at or after `since` and before `until`, exact to the minute. */
  byClient(options: UsageWindow): Promise<ClientUsageRow[]>;
  /** Calls, first and last seen per (client, version), from the UTC day of `since` (until the day of `until`, exclusive): the cheap per-client overview. */
  clientTotals(options: UsageWindow): Promise<ClientTotalsRow[]>;
  /** Calls and distinct clients per UTC day (from the day of `since`) and version; per client too with `perClient`. */
  byDay(options: UsageWindow & { perClient?: boolean }): Promise<DailyUsageRow[]>;
  /**
   * Usage of deprecated elements per (version, element), of one client when asked. Element calls
   * (those with `element` set) are kept in a rollup of their own, as all-time totals: they never
   * count in the other reads, and the other calls never count here.
   */
  elementUsage(options?: { clientId?: string }): Promise<ElementUsageRow[]>;
  /** Element calls per (client, element, version, endpoint), of one client when asked; ordered by those keys. */
  elementCalls(options?: { clientId?: string }): Promise<ClientElementUsageRow[]>;
  /** Raw events still within retention, newest last. */
  list(options: PageOptions & { version: string; clientId?: string }): Promise<Page<UsageCall & { id: number }>>;
  /** Delete raw events recorded before `before`; returns how many went. Rollups are kept. */
  pruneRaw(options: { before: number }): Promise<number>;
  /**
   * Add hourly counts of calls to every version (`usage_operation_hours`): an upsert per (hour,
   * version, endpoint, client) that adds the calls and keeps the latest `lastSeen`, so instances
   * writing the same hour add up.
   */
  addOperationCounts(counts: OperationCount[]): Promise<void>;
  /** Calls per (version, endpoint, client) of the hours from the hour of `since` to `until` (exclusive: hours starting before it). */
  operationUsage(options: UsageWindow): Promise<OperationUsageRow[]>;
  /**
   * Whether the client called the version (one endpoint of it, `GET /users/{id}`, or one
   * deprecated element, `User.nickname`) before `before`: from the all-time rollups (first seen)
   * and the hourly operation counts (hours that ended by it), so it holds for calls made
   * before the version was deprecated too, as long as those hours are kept.
   */
  calledBefore(
    options: Pick<UsageCall, 'clientId' | 'version' | 'element'> & { endpoint?: string; before: number },
  ): Promise<boolean>;
  /** Delete the hourly counts of hours that ended by `before` (those starting before its hour); returns how many rows went. */
  pruneOperationCounts(options: { before: number }): Promise<number>;
}

/**
 * Buffers usage records in memory and writes them in batches, off the request path. Every data
 * plane (the service, `versionary gateway`, a forwarding path of its own) records through this.
 */
export interface UsageRecorder {
  /** One call: appended to the buffer, synchronously; never awaits, never throws, never touches storage. */
  record(call: UsageCall): void;
  /** Write everything buffered now; a failed write keeps the records for the next try. */
  flush(): Promise<void>;
  /** Stop the timer and flush, for graceful shutdown. */
  close(): Promise<void>;
  stats(): { buffered: number; shed: number; failures: number };
}
