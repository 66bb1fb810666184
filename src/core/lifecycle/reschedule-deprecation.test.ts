import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LifecycleVersion } from './schedule.ts';
import { rescheduleDeprecation } from './reschedule-deprecation.ts';
import { scheduleDeprecation } from './schedule-deprecation.ts';
import { at, caught, clockAt, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

// v1 has been deprecated since 2025-12-01 (its sunset window) with a sunset on 2026-06-01.
const current = scheduleOf({ deprecatedAt: '2025-12-01', sunsetAt: '2026-06-01' });
const versions: LifecycleVersion[] = [
  { name: 'v1', releasedAt: at('2023-01-01'), schedule: current },
  { name: 'v2', releasedAt: at('2025-01-01') },
];
const clock = clockAt('2026-01-01T12:00:00Z');

describe('rescheduleDeprecation', () => {
  it('moves the sunset of a version in its sunset window, where scheduleDeprecation refuses', () => {
    const refused = caught(() => scheduleDeprecation({ version: 'v1', versions, clock, sunsetAt: '2026-12-31' }));
    assert.match(
      refused.detail,
      /cannot happen to a version in state 'sunset_window'.* To move its dates, use rescheduleDeprecation\.$/,
    );
    const { schedule, previous, warnings } = rescheduleDeprecation({
      version: 'v1',
      versions,
      clock,
      sunsetAt: '2026-12-31',
    });
    assert.deepEqual(schedule, {
      version: 'v1',
      deprecatedAt: at('2025-12-01'),
      sunsetAt: at('2026-12-31'),
      removed: false,
      reason: 'planned',
    });
    assert.deepEqual(previous, current);
    assert.deepEqual(warnings, []);
  });

  it('always allows a later sunset, even one closer than the notice period: it only adds time', () => {
    const soon = [
      { ...versions[0]!, schedule: scheduleOf({ deprecatedAt: '2025-06-01', sunsetAt: '2026-01-10' }) },
      versions[1]!,
    ];
    const { schedule } = rescheduleDeprecation({ version: 'v1', versions: soon, clock, sunsetAt: '2026-02-10' });
    assert.equal(schedule.sunsetAt, at('2026-02-10'));
  });

  it('refuses an earlier sunset with less than the full notice from now, and allows one with it', () => {
    const error = caught(() => rescheduleDeprecation({ version: 'v1', versions, clock, sunsetAt: '2026-05-01' }));
    assert.equal(error.code, 'POLICY_VIOLATION');
    assert.equal(
      error.detail,
      'notice-period: public APIs need at least 180 days of notice before sunset; v1 gives 119.5 days (2026-01-01 → 2026-05-01).',
    );
    const later = [
      { ...versions[0]!, schedule: scheduleOf({ deprecatedAt: '2025-12-01', sunsetAt: '2027-06-01' }) },
      versions[1]!,
    ];
    assert.equal(
      rescheduleDeprecation({ version: 'v1', versions: later, clock, sunsetAt: '2026-07-01' }).schedule.sunsetAt,
      at('2026-07-01'),
    );
    const enterprise = caught(() =>
      rescheduleDeprecation({ version: 'v1', versions: later, clock, sunsetAt: '2026-07-01', audience: 'enterprise' }),
    );
    assert.match(enterprise.detail, /^notice-period: enterprise APIs need at least 360 days/);
  });

  it('lets a critical fix bring the sunset closer, but only with a named date', () => {
    const fix = rescheduleDeprecation({
      version: 'v1',
      versions,
      clock,
      reason: 'critical-fix',
      sunsetAt: '2026-01-15T00:00:00Z',
    });
    assert.equal(fix.schedule.reason, 'critical-fix');
    const vague = caught(() =>
      rescheduleDeprecation({ version: 'v1', versions, clock, reason: 'critical-fix', noticeMonths: 1 }),
    );
    assert.equal(vague.extensions.rule, 'concrete-sunset');
  });

  it('counts noticeMonths from the deprecation, which is kept unless given', () => {
    const { schedule } = rescheduleDeprecation({ version: 'v1', versions, clock, noticeMonths: 9 });
    assert.equal(schedule.deprecatedAt, at('2025-12-01'));
    assert.equal(schedule.sunsetAt, at('2025-12-01') + 270 * 86_400_000);
  });

  it('refuses to move a passed deprecation into the future, and a sunset before the deprecation', () => {
    const back = caught(() =>
      rescheduleDeprecation({ version: 'v1', versions, clock, deprecatedAt: '2026-02-01', sunsetAt: '2027-01-01' }),
    );
    assert.equal(back.code, 'INVALID_SCHEDULE');
    assert.match(
      back.detail,
      /^lifecycle-transition: v1 has been deprecated since 2025-12-01; its deprecation cannot move into the future \(2026-02-01\)/,
    );
    const order = caught(() =>
      rescheduleDeprecation({
        version: 'v1',
        versions,
        clock,
        deprecatedAt: '2025-11-01',
        sunsetAt: '2025-10-01',
        reason: 'critical-fix',
      }),
    );
    assert.equal(order.extensions.rule, 'sunset-order');
  });

  it('refuses a version that is current, removed or unknown, and bad input', () => {
    const active = caught(() => rescheduleDeprecation({ version: 'v2', versions, clock, sunsetAt: '2027-01-01' }));
    assert.equal(active.code, 'INVALID_SCHEDULE');
    assert.match(
      active.detail,
      /^lifecycle-transition: v2 is not deprecated, so there is nothing to reschedule; deprecate it with scheduleDeprecation\./,
    );
    const removed = caught(() =>
      rescheduleDeprecation({ version: 'v1', versions, clock: clockAt('2026-07-01'), sunsetAt: '2027-01-01' }),
    );
    assert.match(removed.detail, /^lifecycle-transition: v1 is removed/);
    assert.equal(caught(() => rescheduleDeprecation({ version: 'v7', versions, clock })).code, 'VERSION_UNKNOWN');
    const both = caught(() =>
      rescheduleDeprecation({ version: 'v1', versions, clock, noticeMonths: 7, sunsetAt: 'soon' }),
    );
    assert.deepEqual(
      (both.extensions.violations as Array<{ rule: string }>).map((v) => v.rule),
      ['schedule-input', 'schedule-input'],
    );
  });
});
