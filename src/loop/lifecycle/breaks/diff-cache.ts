import type { Clock } from '../../../core/clock/index.ts';

interface DiffCacheOptions {
  clock: Clock;
  /** The lifecycle's generation ({@link LifecycleRuntime.generation}): a new one drops every entry. */
  generation: () => number;
  /** Pairs kept at most; past it the least recently used is dropped. Defaults to 64. */
  maxEntries?: number;
  /** How long an entry is reused, in ms on `clock`. Defaults to 60 000. */
  ttlMs?: number;
}

export type DiffCache<T> = ReturnType<typeof createDiffCache<T>>;

/**
 * A value per (from, to) pair for the lifecycle generation it was computed in (a diff costs milliseconds),
 * expiring after `ttlMs`: the diff judges `x-sunset` dates against the clock.
 */
export function createDiffCache<T>(options: DiffCacheOptions) {
  const maxEntries = options.maxEntries ?? 64;
  const ttlMs = options.ttlMs ?? 60_000;
  // Map keeps insertion order: a hit is re-inserted, so the first entry is the least recently used.
  const entries = new Map<string, { value: T; until: number }>();
  let seen = options.generation();
  return {
    /** `ms`: what computing it cost now, 0 when reused. */
    get(pair: { from: string; to: string }, compute: () => T): { value: T; reused: boolean; ms: number } {
      const generation = options.generation();
      if (generation !== seen) {
        entries.clear();
        seen = generation;
      }
      const key = `${pair.from}\n${pair.to}`;
      const now = options.clock.now();
      const held = entries.get(key);
      entries.delete(key);
      if (held && now < held.until) {
        entries.set(key, held);
        return { value: held.value, reused: true, ms: 0 };
      }
      const started = performance.now();
      const value = compute();
      const ms = performance.now() - started;
      entries.set(key, { value, until: now + ttlMs });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return { value, reused: false, ms };
    },
    size: () => entries.size,
  };
}
