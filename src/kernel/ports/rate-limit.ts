/** What {@link RateLimitStore.hit} is asked to count. */
export interface RateLimitHitOptions {
  /** The counter's key: one per client (`key_ab12…`, `ip:203.0.113.7`). */
  key: string;
  /** The window length, in milliseconds. */
  windowMs: number;
  /** The current instant, from the service's Clock (milliseconds since the epoch). */
  now: number;
}

/** The state of one key's window after a hit. */
export interface RateLimitHit {
  /** Requests counted in the current window, this one included (so at least 1). */
  count: number;
  /** When the current window ends and the count starts again (milliseconds since the epoch). */
  resetAt: number;
}

/**
 * The port a fixed-window rate limiter counts through. `hit` must be atomic: two concurrent hits
 * on one key never see the same `count`. The first hit of a window opens it for `windowMs`; hits
 * at or after `resetAt` open a new window with `count: 1`.
 */
export interface RateLimitStore {
  hit(options: RateLimitHitOptions): Promise<RateLimitHit>;
  /** The same as `hit`, answered at once, for a store kept in this process: the limiter then awaits nothing. */
  hitNow?(options: RateLimitHitOptions): RateLimitHit;
  /**
   * The key's current window without counting anything: `undefined` when no window is open.
   * Lets the limiter refuse an address that is over its budget before any costlier work.
   */
  peek(options: { key: string; now: number }): Promise<RateLimitHit | undefined>;
}

/** The rate-limit store with its circuit breaker state, for metrics. */
export interface FallbackRateLimitStore extends RateLimitStore {
  /** True while requests are counted locally. */
  fallingBack(): boolean;
  /** Calls to the primary that failed or timed out. */
  failures(): number;
}
