import type { UsageCall, UsageStore } from '../ports/index.ts';

/** Options for {@link createUsageRecorder}. */
export interface UsageRecorderOptions {
  store: UsageStore;
  /** How often the buffer is written (a call shows in summaries within this, plus the write). */
  flushIntervalMs?: number;
  /** Records kept while the store is failing; past it the oldest are shed, counted and logged. */
  maxBuffered?: number;
  /** On close, a failing store is retried for this long before the remaining records are given up (and logged); 5000 ms by default. */
  closeTimeoutMs?: number;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Buffers usage records in memory and writes them in batches. */
export interface UsageRecorder {
  record(call: UsageCall): void;
  /** Write everything buffered now; a failed write keeps the records for the next try. */
  flush(): Promise<void>;
  /** Stop the timer and flush, for graceful shutdown. */
  close(): Promise<void>;
  stats(): { buffered: number; shed: number; failures: number };
}

/**
 * Record calls without slowing requests: `record` only pushes to an array; a timer writes
 * batches. Failed writes are retried on the next tick, never dropped silently.
 *
 * @example
 * ```ts
 * const recorder = createUsageRecorder({ store: storage.usage, log: app.log });
 * recorder.record({ version: 'v1', endpoint: 'GET /users', clientId: 'key_1', at: Date.now() });
 * ```
 */
export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const maxBuffered = options.maxBuffered ?? 100_000;
  let buffer: UsageCall[] = [];
  let shed = 0;
  let failures = 0;
  let writing: Promise<void> | undefined;

  const flush = async (): Promise<void> => {
    while (writing) await writing;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    writing = options.store.insert(batch).catch((error: unknown) => {
      failures++;
      buffer = batch.concat(buffer);
      shedOldest();
      options.log.error({ err: error, pending: buffer.length }, 'usage write failed; will retry');
    }).finally(() => { writing = undefined; });
    await writing;
  };
  const shedOldest = (keep = maxBuffered) => {
    const excess = buffer.length - keep;
    if (excess <= 0) return;
    buffer = buffer.slice(excess);
    shed += excess;
    options.log.warn({ shed: excess, totalShed: shed }, 'usage buffer full: oldest records shed');
  };
  // A tick while a write is still running would only queue behind it; skip it instead.
  const timer = setInterval(() => { if (!writing) void flush(); }, options.flushIntervalMs ?? 200);
  timer.unref();

  return {
    record(call) {
      buffer.push(call);
      // A slow (not failing) store must not grow memory without bound either.
      // Shedding down to 90% keeps the cost of it rare rather than paid on every call at the cap.
      if (buffer.length > maxBuffered) shedOldest(Math.floor(maxBuffered * 0.9));
    },
    flush,
    async close() {
      clearInterval(timer);
      // The database may be down at the moment of shutdown: keep trying, within a bound, rather
      // than dropping what was counted.
      const deadline = Date.now() + (options.closeTimeoutMs ?? 5000);
      await flush();
      while (buffer.length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        await flush();
      }
      if (buffer.length > 0) options.log.error({ lost: buffer.length }, 'usage records not written before shutdown');
    },
    stats: () => ({ buffered: buffer.length, shed, failures }),
  };
}
