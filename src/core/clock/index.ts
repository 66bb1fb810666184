import { parseIsoInstant } from '../time/index.ts';

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

/** An instant as {@link createFixedClock} takes it: epoch milliseconds, a `Date`, or ISO 8601 text. */
export type ClockInstant = number | Date | string;

/**
 * A clock that stands still until moved: for tests and simulations. It starts (and is `set`) at
 * epoch milliseconds, a `Date`, or an ISO 8601 date or zoned date-time (`'2027-07-01'` is its
 * midnight UTC); other text throws a `RangeError`.
 *
 * @example
 * ```ts
 * const clock = createFixedClock('2027-07-01');
 * clock.advance(1000);
 * clock.set(Date.UTC(2028, 0, 1));
 * ```
 */
export function createFixedClock(
  start: ClockInstant,
): Clock & { set(at: ClockInstant): void; advance(ms: number): void } {
  let current = toMs(start);
  return {
    now: () => current,
    set: (at) => {
      current = toMs(at);
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

function toMs(at: ClockInstant): number {
  const ms = typeof at === 'number' ? at : typeof at === 'object' ? at.getTime() : parseIsoInstant(at.trim());
  if (ms === undefined || !Number.isFinite(ms))
    throw new RangeError(
      `createFixedClock: ${JSON.stringify(String(at))} is not an instant (epoch ms, a Date, or ISO 8601)`,
    );
  return ms;
}
