import { DAY_MS } from '../lifecycle/index.ts';

/** How near a sunset is, as a person reads it. */
export interface SunsetCountdown {
  /** Whole days left, rounded up (a sunset later today is 1 day away); 0 once it has passed. */
  daysLeft: number;
  /** `urgent` under 30 days (the spec's `Warning` header threshold), `past` at or after the sunset. */
  level: 'calm' | 'urgent' | 'past';
}

/** Days under which a sunset is urgent: the same threshold as the `Warning` response header. */
export const URGENT_DAYS = 30;

/** The countdown to a sunset instant, at `now`. */
export function sunsetCountdown(options: { now: number; sunsetAt: number }): SunsetCountdown {
  const left = options.sunsetAt - options.now;
  if (left <= 0) return { daysLeft: 0, level: 'past' };
  const daysLeft = Math.ceil(left / DAY_MS);
  return { daysLeft, level: daysLeft < URGENT_DAYS ? 'urgent' : 'calm' };
}
