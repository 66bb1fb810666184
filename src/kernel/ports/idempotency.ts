/** A response kept for replay. */
interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What beginning an idempotent request found. */
type BeginOutcome =
  { kind: 'started' } | { kind: 'running' } | { kind: 'mismatch' } | { kind: 'done'; response: StoredResponse };

/** The service's port for `Idempotency-Key` records, per client and key. */
export interface IdempotencyStore {
  /** Atomically claim the key, or report what holds it. Records older than `expiredBefore` are replaced. */
  begin(options: {
    clientId: string;
    key: string;
    fingerprint: string;
    now: number;
    expiredBefore: number;
    staleRunningBefore: number;
  }): Promise<BeginOutcome>;
  /** Store the response, if the claim made at `claimedAt` still holds the key. */
  complete(options: { clientId: string; key: string; claimedAt: number; response: StoredResponse }): Promise<void>;
  /** Release a claim whose request failed, so a retry can run. */
  abandon(options: { clientId: string; key: string; claimedAt: number }): Promise<void>;
}
