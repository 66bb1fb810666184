/** Called when a topic changed somewhere (this instance or another): reload what the topic covers. */
export type ChangeListener = () => void;

/** Whether the feed currently delivers other instances' changes. */
interface ChangeFeedHealth {
  healthy: boolean;
  /** `in-process`, `postgres` or `redis`. */
  transport: string;
  /** When the feed last became unhealthy (ms since the epoch), or null while healthy. */
  unhealthySince: number | null;
}

/**
 * A change feed between the instances of the service. A topic (`lifecycle`, `api-keys`,
 * `clients`, …) names a kind of shared state; a message carries no data, only "reload it", so a
 * lost or duplicated message costs a reload, never a wrong value. Subscribers are also called
 * when the feed reconnects, since messages may have been missed while it was down.
 */
export interface ChangeFeed {
  /** Tell every instance, this one included, that `topic` changed. Never throws: a failed send is logged and left to the reconcile. */
  publish(topic: string): Promise<void>;
  subscribe(topic: string, listener: ChangeListener): () => void;
  health(): ChangeFeedHealth;
  close(): Promise<void>;
}
