import type { FallbackRateLimitStore, RateLimitHit, RateLimitHitOptions, RateLimitStore } from '../ports/rate-limit.ts';

export interface FallbackRateLimitStoreOptions {
  /** The shared store (Redis). */
  primary: RateLimitStore;
  /** The local store used while the shared one fails (a memory store). */
  fallback: RateLimitStore;
  /** A call to the primary slower than this counts as a failure; 100 ms by default. */
  timeoutMs?: number;
  /** Consecutive failures that open the circuit; 3 by default. */
  failureThreshold?: number;
  /** How long the circuit stays open before one call probes the primary again; 2000 ms by default. */
  openMs?: number;
  /** Reads real time for the circuit (not the service's Clock, which tests freeze). */
  now?: () => number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/**
 * A circuit breaker in front of the shared rate-limit store. Each call to the primary is bounded
 * by `timeoutMs`; after `failureThreshold` failures in a row the circuit opens and every request is
 * counted by the local fallback (so each instance limits on its own, at the same per-client limit)
 * with no call to the primary at all; after `openMs` one request probes the primary, and a success
 * closes the circuit. Requests therefore keep their normal latency while Redis is down, and the
 * limit stays enforced per instance rather than failing open.
 */
export function createFallbackRateLimitStore(options: FallbackRateLimitStoreOptions): FallbackRateLimitStore {
  const timeoutMs = options.timeoutMs ?? 100;
  const threshold = options.failureThreshold ?? 3;
  const openMs = options.openMs ?? 2000;
  const now = options.now ?? Date.now;
  let consecutive = 0;
  let failures = 0;
  let openUntil: number | undefined;
  let probing = false;

  const fail = (error: unknown) => {
    failures++;
    consecutive++;
    if (openUntil === undefined && consecutive >= threshold) {
      options.log.warn(
        { err: { message: (error as Error).message }, retryInMs: openMs },
        'rate-limit store unavailable: counting locally, per instance',
      );
    }
    if (consecutive >= threshold) openUntil = now() + openMs;
  };
  const succeed = () => {
    if (openUntil !== undefined) options.log.info({}, 'rate-limit store is back: counting globally again');
    consecutive = 0;
    openUntil = undefined;
  };

  return {
    async hit(hit: RateLimitHitOptions): Promise<RateLimitHit> {
      const open = openUntil !== undefined && (now() < openUntil || probing);
      if (open) return options.fallback.hit(hit);
      probing = openUntil !== undefined;
      try {
        const result = await withTimeout(options.primary.hit(hit), timeoutMs);
        succeed();
        return result;
      } catch (error) {
        fail(error);
        return options.fallback.hit(hit);
      } finally {
        probing = false;
      }
    },
    // A peek follows the circuit like a hit, but a slow or failing primary only counts as a failure.
    async peek(peek: { key: string; now: number }): Promise<RateLimitHit | undefined> {
      if (openUntil !== undefined) return options.fallback.peek(peek);
      try {
        return await withTimeout(options.primary.peek(peek), timeoutMs);
      } catch (error) {
        fail(error);
        return options.fallback.peek(peek);
      }
    },
    fallingBack: () => openUntil !== undefined,
    failures: () => failures,
  };
}

/** `promise`, or a rejection once `ms` have passed without an answer. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  promise.catch(() => {});
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
