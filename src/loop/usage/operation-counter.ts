import type { OperationCount, UsageStore } from '../../kernel/ports/index.ts';
import { writeLoop } from './write-loop.ts';

const hourMs = 3_600_000;

export interface OperationCounterOptions {
  store: Pick<UsageStore, 'addOperationCounts'>;
  /** How often the counts are written (5000 ms by default): a call shows in the reads within this, plus the write. */
  flushIntervalMs?: number;
  /** Distinct (hour, version, endpoint, client) kept, written or not (100 000 by default); past it new keys are shed, counted and logged. */
  maxKeys?: number;
  /** Counts per write (1000 by default): a flush writes in chunks of this size, letting requests run between them. */
  maxBatch?: number;
  /** On close, a failing store is retried for this long before the counts are given up (and logged); 5000 ms by default. */
  closeTimeoutMs?: number;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Counts calls per (UTC hour, version, endpoint, client) in memory and writes the counts in batches. */
export type OperationCounter = ReturnType<typeof createOperationCounter>;

/**
 * Count every call of every version cheaply: a request only bumps an entry of a Map (one per
 * hour, keyed by version, endpoint and client), so the cost per call is a string key and a lookup;
 * the entry itself is the row `addOperationCounts` takes. A timer hands the maps to the store;
 * a failed write puts its counts back, to be added to what came meanwhile.
 */
export function createOperationCounter(options: OperationCounterOptions) {
  const maxKeys = options.maxKeys ?? 100_000;
  const maxBatch = Math.max(1, options.maxBatch ?? 1000);
  let hours = new Map<number, Map<string, OperationCount>>();
  // The hour most calls fall in, cached: one Map lookup per call instead of two.
  let currentHour = -1;
  let current: Map<string, OperationCount> | undefined;
  let keys = 0;
  // Keys taken by a write under way: they count against the cap, since a failure puts them back.
  let inFlight = 0;
  let shed = 0;
  let failures = 0;

  const mapOf = (hour: number) => {
    let map = hours.get(hour);
    if (!map) hours.set(hour, (map = new Map()));
    return map;
  };
  const putBack = (counts: readonly OperationCount[]) => {
    for (const c of counts) {
      const map = mapOf(c.hour);
      const key = `${c.version}\u0000${c.endpoint}\u0000${c.clientId}`;
      const entry = map.get(key);
      if (!entry) {
        map.set(key, c);
        keys++;
        continue;
      }
      entry.calls += c.calls;
      if (c.lastSeen > entry.lastSeen) entry.lastSeen = c.lastSeen;
    }
  };
  const writeAll = async (): Promise<void> => {
    const taken = [...hours.values()].flatMap((map) => [...map.values()]);
    hours = new Map();
    currentHour = -1;
    current = undefined;
    keys = 0;
    inFlight = taken.length;
    for (let i = 0; i < taken.length; i += maxBatch) {
      const batch = taken.slice(i, i + maxBatch);
      try {
        await options.store.addOperationCounts(batch);
        inFlight -= batch.length;
      } catch (error) {
        failures++;
        const left = taken.slice(i);
        inFlight = 0;
        putBack(left);
        options.log.error({ err: error, pending: keys }, 'operation counts write failed; will retry');
        return;
      }
      // A turn of the event loop between chunks, so that no write holds it for long.
      if (i + maxBatch < taken.length) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const { flush, close } = writeLoop({
    intervalMs: options.flushIntervalMs ?? 5000,
    closeTimeoutMs: options.closeTimeoutMs ?? 5000,
    pending: () => keys,
    writeAll,
  });

  return {
    /**
     * One call: increments its count, nothing more (no row, no write). The client apart, so that the
     * plugin's call event is passed as it is, without a copy.
     */
    count({ version, endpoint, at }: { version: string; endpoint: string; at: number }, clientId: string): void {
      const hour = at - (at % hourMs);
      if (hour !== currentHour || !current) {
        current = mapOf(hour);
        currentHour = hour;
      }
      const key = `${version}\u0000${endpoint}\u0000${clientId}`;
      const entry = current.get(key);
      if (entry) {
        entry.calls++;
        if (at > entry.lastSeen) entry.lastSeen = at;
        return;
      }
      // A failing store must not grow memory without bound: existing keys keep counting, new ones are shed.
      if (keys + inFlight >= maxKeys) {
        if (shed++ % 10_000 === 0)
          options.log.warn({ totalShed: shed, keys }, 'operation counts full: calls of new keys shed');
        return;
      }
      current.set(key, { hour, version, endpoint, clientId, calls: 1, lastSeen: at });
      keys++;
    },
    /** Write every count now; a failed write keeps the counts for the next try. */
    flush,
    /** Stop the timer and flush, for graceful shutdown. */
    async close(): Promise<void> {
      await close();
      if (keys > 0) options.log.error({ lost: keys }, 'operation counts not written before shutdown');
    },
    /** Keys counted and not yet written, calls shed at the cap, failed writes. */
    stats: () => ({ keys: keys + inFlight, shed, failures }),
  };
}
