/**
 * The only source of time in core. Every rule that reads the time takes a Clock, so tests can
 * stand at any instant.
 *
 * @example
 * ```ts
 * const clock: Clock = { now: () => new Date('2026-01-01T00:00:00Z').getTime() };
 * ```
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/**
 * A clock that stands still until moved: for tests and simulations.
 *
 * @example
 * ```ts
 * const clock = createFixedClock(Date.UTC(2026, 0, 1));
 * clock.advance(1000);
 * ```
 */
export function createFixedClock(start: number): Clock & { set(ms: number): void; advance(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
