import type { OperationCount, UsageCall } from './usage.ts';

/** Where a reader of an access log stands in it: the file (by device and inode) and the byte after the last line read. */
export interface UsageLogPosition {
  /** What the position is kept under (the reader's host name and the log's path): one reader per key. */
  path: string;
  /** `st_dev` and `st_ino` of the file the offset belongs to, as decimal text (they may pass 2^53). */
  device: string;
  inode: string;
  /** Bytes of that file read and counted: the start of the first line not yet counted. */
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
 * Offsets of the access logs the control plane reads (nginx's usage log), kept beside the usage
 * they produced: a batch's rows and its new offset commit in one transaction, so a reader that
 * stops anywhere resumes at a line boundary with every line counted once. A lease per path keeps
 * a second reader of the same path (another control plane on the same database) from counting it
 * again.
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
