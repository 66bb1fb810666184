import type { OperationCount, UsageCall } from './usage.ts';

/** Where the recording of a stream of usage stands: for nginx's batches, device `nginx`, inode its instance, offset the last batch recorded. */
interface UsageLogPosition {
  /** What the position is kept under (`nginx-usage:<instance>`): one recorder at a time per key. */
  path: string;
  /** What the offset belongs to (for a file, `st_dev` and `st_ino` as decimal text). */
  device: string;
  inode: string;
  /** How far the stream is recorded (nginx's batches: the last sequence number). */
  offset: number;
}

/**
 * One step of reading: the calls of the lines read, and where the reader stands after them.
 *
 * @internal exported for the tests
 */
export interface UsageLogBatch {
  position: UsageLogPosition;
  /** Calls for the usage rollups (deprecated versions, endpoints and elements), as the recorder writes them. */
  calls: UsageCall[];
  /** Calls of every version per operation, as the operation counter writes them. */
  counts: OperationCount[];
  /** Keep raw events for the calls listing, as the recorder does. */
  keepRaw: boolean;
  /** The reader that holds the path's lease: the batch is refused (and nothing written) when another holds it now. */
  owner: string;
}

/**
 * Positions in a stream of usage the control plane records, kept beside the usage they produced:
 * a batch's rows and its new position commit in one transaction, so every batch is counted once
 * however often it is sent. nginx's usage batches use it with `path` `nginx-usage:<instance>` and
 * `offset` the batch's sequence number. A lease per path keeps a second control plane on the same
 * database from recording a batch of the same stream at the same time.
 */
export interface UsageLogStore {
  /** The stored position of `path`, if any reader ever committed one. */
  position(path: string): Promise<UsageLogPosition | undefined>;
  /**
   * Take or renew the lease on `path` for `owner` until `until`; true when `owner` holds it now
   * (it was free, expired at `now`, or already `owner`'s).
   */
  lease(options: { path: string; owner: string; now: number; until: number }): Promise<boolean>;
  /** Let the lease go (on shutdown), so another reader may take it at once. */
  release(options: { path: string; owner: string }): Promise<void>;
  /** Write the batch's usage rows and its position in one transaction; throws (writing nothing) when `owner` no longer holds the lease. */
  commit(batch: UsageLogBatch): Promise<void>;
}
