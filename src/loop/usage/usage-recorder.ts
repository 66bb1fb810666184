import { writeLoop } from './write-loop.ts';
import type { UsageCall, UsageRecorder, UsageStore } from '../../kernel/ports/index.ts';

export interface UsageRecorderOptions {
  store: UsageStore;
  /** How often the buffer is written, 1000 ms by default (a call shows in summaries within this, plus the write; reads that flush first see it at once). */
  flushIntervalMs?: number;
  /** Records kept while the store is failing or slow (100 000 by default); past it the oldest are shed, counted, and logged once per outage. */
  maxBuffered?: number;
  /** On close, a failing store is retried for this long before the remaining records are given up (and logged); 5000 ms by default. */
  closeTimeoutMs?: number;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Keep raw events beside the rollups (for the calls listing); true by default. */
  keepRaw?: boolean;
  /** Records per write (1000 by default): a flush writes its records in chunks of this size, letting requests run between them. */
  maxBatch?: number;
}

/**
 * Record calls without slowing requests: `record` only pushes to an array and never awaits; a
 * timer (each second by default) writes batches, and `close` writes what is left. A failed write
 * keeps its records, in order, for the next tick. While the store fails the buffer is bounded:
 * past `maxBuffered` the oldest records are shed, and that is logged once per outage (with the
 * total shed when writes resume, and at close), never silently.
 */
export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const maxBuffered = options.maxBuffered ?? 100_000;
  let buffer: UsageCall[] = [];
  let shed = 0;
  let failures = 0;
  // One line per outage, not one per tick or per shed: set at the first failure or shed, cleared
  // by the next write that succeeds.
  let failing = false;
  let shedWarned = false;

  const maxBatch = Math.max(1, options.maxBatch ?? 1000);
  // One chunk: true when written, false when the store failed (the chunk is back in the buffer).
  const writeChunk = async (): Promise<boolean> => {
    const batch = buffer.slice(0, maxBatch);
    buffer = buffer.slice(batch.length);
    return options.store.insert(batch, { keepRaw: options.keepRaw ?? true }).then(
      () => {
        if (failing || shedWarned)
          options.log.warn({ failures, totalShed: shed, pending: buffer.length }, 'usage writes resumed');
        failing = shedWarned = false;
        return true;
      },
      (error: unknown) => {
        failures++;
        buffer = batch.concat(buffer);
        shedOldest();
        if (!failing)
          options.log.error({ err: error, pending: buffer.length }, 'usage write failed; kept and retried each tick');
        failing = true;
        return false;
      },
    );
  };
  // A synchronous SQLite write of a whole interval's calls (thousands at a few thousand requests
  // a second) held the event loop for >10 ms, which was the p99 of deprecated calls. Written in
  // chunks with a turn of the event loop between them, no write holds it for long.
  const writeAll = async (): Promise<void> => {
    let left = buffer.length;
    while (left > 0 && buffer.length > 0) {
      left -= Math.min(maxBatch, buffer.length);
      if (!(await writeChunk())) return;
      if (left > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const shedOldest = (keep = maxBuffered) => {
    const excess = buffer.length - keep;
    if (excess <= 0) return;
    buffer = buffer.slice(excess);
    shed += excess;
    if (!shedWarned)
      options.log.warn(
        { shed: excess, totalShed: shed, maxBuffered },
        'usage buffer full: oldest records shed until writes succeed',
      );
    shedWarned = true;
  };
  const { flush, close } = writeLoop({
    intervalMs: options.flushIntervalMs ?? 1000,
    closeTimeoutMs: options.closeTimeoutMs ?? 5000,
    pending: () => buffer.length,
    writeAll,
  });

  return {
    record(call) {
      buffer.push(call);
      // A slow (not failing) store must not grow memory without bound either.
      // Shedding down to 90% keeps the cost of it rare rather than paid on every call at the cap.
      if (buffer.length > maxBuffered) shedOldest(Math.floor(maxBuffered * 0.9));
    },
    flush,
    async close() {
      await close();
      if (buffer.length > 0 || shed > 0)
        options.log.error({ lost: buffer.length, totalShed: shed }, 'usage records not written before shutdown');
    },
    stats: () => ({ buffered: buffer.length, shed, failures }),
  };
}
