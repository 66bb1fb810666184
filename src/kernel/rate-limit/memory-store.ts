import type { RateLimitHit, RateLimitHitOptions, RateLimitStore } from '../ports/rate-limit.ts';

export interface MemoryRateLimitStoreOptions {
  /** How often, at most, a hit sweeps expired windows (ms). Defaults to 60 000. */
  sweepIntervalMs?: number;
  /** Keys held at most; past it the oldest window is dropped. Defaults to 100 000. */
  maxKeys?: number;
}

/** The in-memory store, with a size probe for tests and metrics. */
export interface MemoryRateLimitStore extends RateLimitStore {
  /** Windows currently held, expired ones not yet swept included. */
  size(): number;
}

/**
 * A {@link RateLimitStore} in process memory: right for one instance; several instances each count
 * on their own, so use a shared store (Redis) behind a load balancer.
 *
 * Memory stays bounded without a timer: a hit sweeps expired windows when `sweepIntervalMs` has
 * passed on the caller's clock (so tests move time instead of sleeping), and `maxKeys` caps what
 * one busy window can hold. At the cap the oldest window is dropped: that client starts afresh,
 * which errs towards serving rather than towards refusing everyone.
 */
export function createMemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): MemoryRateLimitStore {
  const sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  const maxKeys = options.maxKeys ?? 100_000;
  // Map keeps insertion order; a new window is re-inserted, so the first entry is the oldest window.
  const windows = new Map<string, RateLimitHit>();
  let nextSweepAt = -Infinity;

  const sweep = (now: number) => {
    for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
    nextSweepAt = now + sweepIntervalMs;
  };

  // Synchronous inside: nothing can interleave between the read and the write, so hits are atomic.
  const hitNow = ({ key, windowMs, now }: RateLimitHitOptions): RateLimitHit => {
    if (now >= nextSweepAt) sweep(now);
    const current = windows.get(key);
    if (current && current.resetAt > now) {
      current.count += 1;
      // A copy, so a caller cannot change the window; a literal is cheaper than a spread.
      return { count: current.count, resetAt: current.resetAt };
    }
    windows.delete(key);
    if (windows.size >= maxKeys) sweep(now);
    if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
    const opened = { count: 1, resetAt: now + windowMs };
    windows.set(key, opened);
    return { ...opened };
  };
  return {
    hitNow,
    hit: async (options: RateLimitHitOptions): Promise<RateLimitHit> => hitNow(options),
    async peek({ key, now }: { key: string; now: number }): Promise<RateLimitHit | undefined> {
      const current = windows.get(key);
      return current && current.resetAt > now ? { ...current } : undefined;
    },
    size: () => windows.size,
  };
}
