import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkDeprecationStatus } from './deprecation-status.ts';
import type { DeprecationStatus } from './deprecation-status.ts';
import { at, clockAt, days, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

const schedule = scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' });
const deprecatedAt = at('2026-01-01');
const sunsetAt = at('2026-07-01');

describe('checkDeprecationStatus', () => {
  it('order 1: not_deprecated when no deprecation is registered', () => {
    assert.deepEqual(checkDeprecationStatus({ schedule: undefined, clock: clockAt('2026-01-01') }), {
      status: 'not_deprecated',
      schedule: undefined,
      flaggedRemoved: false,
    });
  });

  it('order 2: removed when flagged, even before the dates', () => {
    const flagged = { ...schedule, removed: true };
    const result = checkDeprecationStatus({ schedule: flagged, clock: clockAt('2025-06-01') });
    assert.equal(result.status, 'removed');
    assert.equal(result.schedule, flagged);
    assert.equal(result.flaggedRemoved, false);
  });

  it('order 3: removed after the sunset, returning a flagged copy without mutating the input', () => {
    const frozen = Object.freeze({ ...schedule });
    const result = checkDeprecationStatus({ schedule: frozen, clock: clockAt(sunsetAt + 1) });
    assert.equal(result.status, 'removed');
    assert.equal(result.flaggedRemoved, true);
    assert.deepEqual(result.schedule, { ...schedule, removed: true });
    assert.equal(frozen.removed, false);
  });

  it('order 3 boundary: exactly at the sunset the version is not yet removed', () => {
    const result = checkDeprecationStatus({ schedule, clock: clockAt(sunsetAt) });
    assert.equal(result.status, 'ending_soon');
    assert.equal(result.flaggedRemoved, false);
  });

  it('order 4 boundary: ending_soon only when more than 30 days after deprecation', () => {
    const statusAt = (ms: number) => checkDeprecationStatus({ schedule, clock: clockAt(ms) }).status;
    assert.equal(statusAt(deprecatedAt + days(30) - 1), 'deprecated');
    assert.equal(statusAt(deprecatedAt + days(30)), 'deprecated');
    assert.equal(statusAt(deprecatedAt + days(30) + 1), 'ending_soon');
  });

  it('order 5: deprecated otherwise, including before a future deprecation date', () => {
    assert.equal(checkDeprecationStatus({ schedule, clock: clockAt(deprecatedAt - 1) }).status, 'deprecated');
    assert.equal(checkDeprecationStatus({ schedule, clock: clockAt(deprecatedAt) }).status, 'deprecated');
  });

  it('order 3 wins over order 4 when the sunset comes within 30 days of deprecation', () => {
    const short = { ...schedule, sunsetAt: deprecatedAt + days(10) };
    assert.equal(
      checkDeprecationStatus({ schedule: short, clock: clockAt(deprecatedAt + days(10)) }).status,
      'deprecated',
    );
    assert.equal(
      checkDeprecationStatus({ schedule: short, clock: clockAt(deprecatedAt + days(10) + 1) }).status,
      'removed',
    );
  });

  it('is monotonic in time: deprecated, then ending_soon, then removed', () => {
    const rank: Record<DeprecationStatus, number> = { not_deprecated: 0, deprecated: 1, ending_soon: 2, removed: 3 };
    const arbitrarySchedule = fc.record({
      deprecatedAt: fc.integer({ min: 0, max: 4e12 }),
      length: fc.integer({ min: 0, max: 1e11 }),
    });
    fc.assert(
      fc.property(arbitrarySchedule, fc.integer({ min: -2e11, max: 2e11 }), fc.nat(2e11), (s, offset, step) => {
        const current = { ...schedule, deprecatedAt: s.deprecatedAt, sunsetAt: s.deprecatedAt + s.length };
        const t = s.deprecatedAt + offset;
        const first = checkDeprecationStatus({ schedule: current, clock: clockAt(t) });
        const later = checkDeprecationStatus({ schedule: first.schedule, clock: clockAt(t + step) });
        assert.ok(rank[later.status] >= rank[first.status], `${first.status} then ${later.status}`);
      }),
    );
  });
});
