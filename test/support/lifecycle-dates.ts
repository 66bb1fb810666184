import { createFixedClock } from '../../src/core/clock/index.ts';
import { isVersionaryError, type VersionaryError } from '../../src/core/errors/index.ts';
import { DAY_MS } from '../../src/core/lifecycle/durations.ts';
import type { DeprecationSchedule } from '../../src/core/lifecycle/schedule.ts';
import { parseIsoInstant } from '../../src/core/time/index.ts';

/** Epoch milliseconds for an ISO text, failing loudly on a typo. Test helper only. */
export function at(iso: string): number {
  const ms = parseIsoInstant(iso);
  if (ms === undefined) throw new TypeError(`bad test date ${iso}`);
  return ms;
}

/** A fixed clock standing at an ISO instant or epoch milliseconds. Test helper only. */
export function clockAt(instant: string | number): ReturnType<typeof createFixedClock> {
  return createFixedClock(typeof instant === 'number' ? instant : at(instant));
}

/** A planned schedule from ISO dates. Test helper only. */
export function scheduleOf(options: {
  deprecatedAt: string;
  sunsetAt: string;
  removed?: boolean;
  version?: string;
}): DeprecationSchedule {
  return {
    version: options.version ?? 'v1',
    deprecatedAt: at(options.deprecatedAt),
    sunsetAt: at(options.sunsetAt),
    removed: options.removed ?? false,
    reason: 'planned',
  };
}

/** Days as milliseconds, for readable boundary arithmetic in tests. */
export const days = (count: number): number => count * DAY_MS;

/** The VersionaryError a call throws, failing the test when it throws nothing or something else. Test helper only. */
export function caught(run: () => unknown): VersionaryError {
  try {
    run();
  } catch (error) {
    if (isVersionaryError(error)) return error;
    throw error;
  }
  throw new Error('expected a VersionaryError, and nothing was thrown');
}
