import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isVersionaryError } from '../errors/index.ts';
import { lifecycleTransitions, stateAt, transition } from './lifecycle-state.ts';
import type { LifecycleEvent, LifecycleState } from './lifecycle-state.ts';
import { clockAt, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

const states: LifecycleState[] = ['active', 'deprecated', 'sunset_window', 'removed'];
const events: LifecycleEvent[] = [
  'schedule-deprecation',
  'critical-fix',
  'client-request',
  'deprecation-date-passed',
  'sunset-date-passed',
];

describe('transition', () => {
  const specRows: Array<[LifecycleState, LifecycleEvent, LifecycleState]> = [
    ['active', 'schedule-deprecation', 'deprecated'],
    ['active', 'critical-fix', 'deprecated'],
    ['deprecated', 'client-request', 'deprecated'],
    ['deprecated', 'deprecation-date-passed', 'sunset_window'],
    ['sunset_window', 'sunset-date-passed', 'removed'],
  ];
  for (const [from, event, to] of specRows) {
    it(`spec row: ${from} --${event}--> ${to}`, () => assert.equal(transition(from, event), to));
  }

  it('never changes the state on a client request', () => {
    for (const state of states) assert.equal(transition(state, 'client-request'), state);
  });

  it('refuses every move the table does not list, with INVALID_SCHEDULE naming the allowed events', () => {
    const allowed = new Set([...specRows.map(([f, e]) => `${f}|${e}`), ...states.map((s) => `${s}|client-request`)]);
    let refused = 0;
    for (const state of states) {
      for (const event of events) {
        if (allowed.has(`${state}|${event}`)) continue;
        refused += 1;
        assert.throws(
          () => transition(state, event),
          (err) => {
            assert.ok(isVersionaryError(err));
            assert.equal(err.code, 'INVALID_SCHEDULE');
            assert.equal(err.extensions.rule, 'lifecycle-transition');
            assert.match(err.detail, new RegExp(`'${event}' cannot happen to a version in state '${state}'`));
            return true;
          },
        );
      }
    }
    assert.equal(refused, 20 - lifecycleTransitions.length);
  });
});

describe('stateAt', () => {
  const schedule = scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' });
  const cases: Array<[string, LifecycleState]> = [
    ['2025-12-31T23:59:59.999Z', 'deprecated'],
    ['2026-01-01T00:00:00.000Z', 'deprecated'],
    ['2026-01-01T00:00:00.001Z', 'sunset_window'],
    ['2026-06-30T23:59:59.999Z', 'sunset_window'],
    ['2026-07-01T00:00:00.000Z', 'sunset_window'],
    ['2026-07-01T00:00:00.001Z', 'removed'],
  ];
  for (const [now, state] of cases) {
    it(`is ${state} at ${now}`, () => assert.equal(stateAt({ schedule, clock: clockAt(now) }), state));
  }

  it('is active without a schedule and removed once flagged, whatever the time', () => {
    assert.equal(stateAt({ schedule: undefined, clock: clockAt('2030-01-01') }), 'active');
    const flagged = { ...schedule, removed: true };
    assert.equal(stateAt({ schedule: flagged, clock: clockAt('2025-01-01') }), 'removed');
  });

  it('only ever moves along allowed transitions as time passes', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e10, max: 3e10 }), fc.integer({ min: 1, max: 3e10 }), (offset, step) => {
        const base = schedule.deprecatedAt + offset;
        const before = stateAt({ schedule, clock: clockAt(base) });
        const after = stateAt({ schedule, clock: clockAt(base + step) });
        const rank = states.indexOf(after) - states.indexOf(before);
        assert.ok(rank >= 0, `${before} -> ${after}`);
      }),
    );
  });
});
