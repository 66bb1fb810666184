import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkDeprecationStatus, earliest, nextLifecycleChange } from './deprecation-status.ts';
import { stateAt } from './lifecycle-state.ts';
import { at, clockAt, days, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

const schedule = scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' });
const d = at('2026-01-01');

describe('nextLifecycleChange', () => {
  it('steps through the deprecation date, the 30-day mark and the sunset', () => {
    assert.equal(nextLifecycleChange({ schedule, now: d - 5 }), d + 1);
    assert.equal(nextLifecycleChange({ schedule, now: d + 1 }), d + days(30) + 1);
    assert.equal(nextLifecycleChange({ schedule, now: d + days(30) + 1 }), at('2026-07-01') + 1);
    assert.equal(nextLifecycleChange({ schedule, now: at('2026-07-01') + 1 }), undefined);
    assert.equal(nextLifecycleChange({ schedule: { ...schedule, removed: true }, now: d }), undefined);
    assert.equal(nextLifecycleChange({ schedule: undefined, now: d }), undefined);
  });

  it('is exactly the first instant at which state or status differ', () => {
    const observe = (s: typeof schedule, ms: number) =>
      `${stateAt({ schedule: s, clock: clockAt(ms) })}/${checkDeprecationStatus({ schedule: s, clock: clockAt(ms) }).status}`;
    fc.assert(
      fc.property(fc.nat(days(200)), fc.integer({ min: -days(5), max: days(210) }), (length, offset) => {
        const s = { ...schedule, sunsetAt: d + length };
        const now = d + offset;
        const next = nextLifecycleChange({ schedule: s, now });
        if (next === undefined) {
          assert.equal(observe(s, now + days(1000)), observe(s, now));
          return;
        }
        assert.equal(observe(s, next - 1), observe(s, now));
        assert.notEqual(observe(s, next), observe(s, now));
      }),
      { numRuns: 500 },
    );
  });
});

describe('earliest', () => {
  it('ignores undefined', () => {
    assert.equal(earliest([undefined, 5, 3, undefined]), 3);
    assert.equal(earliest([undefined]), undefined);
    assert.equal(earliest([]), undefined);
  });
});
