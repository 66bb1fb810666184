import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkConcreteSunset, checkNoticePeriod, checkSunsetOrder, minimumNoticeMs } from './schedule-rules.ts';
import { at, days, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

describe('checkNoticePeriod', () => {
  it('needs 180 days for public and 360 days for enterprise APIs', () => {
    assert.equal(minimumNoticeMs('public'), days(180));
    assert.equal(minimumNoticeMs('enterprise'), days(360));
  });

  it('names the rule, the audience and the numbers', () => {
    const schedule = scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-04-01' });
    const error = checkNoticePeriod({ schedule, audience: 'public' });
    assert.equal(error?.code, 'POLICY_VIOLATION');
    assert.equal(
      error?.detail,
      'notice-period: public APIs need at least 180 days of notice before sunset; v1 gives 90 days (2026-01-01 → 2026-04-01).',
    );
    assert.equal(error?.extensions.rule, 'notice-period');
    assert.equal(error?.extensions.requiredDays, 180);
    assert.equal(error?.extensions.givenDays, 90);
  });

  it('accepts exactly the minimum and refuses one millisecond less', () => {
    const base = scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-01-01' });
    for (const [audience, need] of [
      ['public', days(180)],
      ['enterprise', days(360)],
    ] as const) {
      assert.equal(
        checkNoticePeriod({ schedule: { ...base, sunsetAt: base.deprecatedAt + need }, audience }),
        undefined,
      );
      const short = checkNoticePeriod({ schedule: { ...base, sunsetAt: base.deprecatedAt + need - 1 }, audience });
      assert.equal(short?.extensions.rule, 'notice-period');
      assert.match(
        short?.detail ?? '',
        new RegExp(`^notice-period: ${audience} APIs need at least ${need / days(1)} days`),
      );
    }
  });

  it('counts notice from the announcement when the deprecation is backdated', () => {
    const schedule = scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' });
    assert.equal(checkNoticePeriod({ schedule, audience: 'public' }), undefined);
    const error = checkNoticePeriod({ schedule, audience: 'public', announcedAt: at('2026-03-01') });
    assert.match(error?.detail ?? '', /v1 gives 122 days \(2026-03-01 → 2026-07-01\)/);
  });

  it('spares a critical fix', () => {
    const schedule = {
      ...scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-01-08' }),
      reason: 'critical-fix' as const,
    };
    assert.equal(checkNoticePeriod({ schedule, audience: 'enterprise' }), undefined);
  });
});

describe('checkConcreteSunset', () => {
  const planned = scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' });

  it('refuses a schedule without a real sunset instant', () => {
    const error = checkConcreteSunset({ schedule: { ...planned, sunsetAt: Number.NaN } });
    assert.equal(error?.code, 'POLICY_VIOLATION');
    assert.match(error?.detail ?? '', /^concrete-sunset: v1 has no concrete sunset date \(got NaN\)/);
  });

  it('makes a critical fix name its sunset date', () => {
    const critical = { ...planned, reason: 'critical-fix' as const };
    assert.match(
      checkConcreteSunset({ schedule: critical, sunsetNamed: false })?.detail ?? '',
      /^concrete-sunset: a critical-fix deprecation may give less notice but must name its sunset date/,
    );
    assert.equal(checkConcreteSunset({ schedule: critical, sunsetNamed: true }), undefined);
    assert.equal(checkConcreteSunset({ schedule: planned, sunsetNamed: false }), undefined);
  });
});

describe('checkSunsetOrder', () => {
  const schedule = scheduleOf({ deprecatedAt: '2026-01-10', sunsetAt: '2026-01-10' });

  it('allows a sunset at the deprecation instant and refuses one a millisecond before', () => {
    assert.equal(checkSunsetOrder(schedule), undefined);
    const error = checkSunsetOrder({ ...schedule, sunsetAt: schedule.deprecatedAt - days(9) });
    assert.equal(error?.code, 'INVALID_SCHEDULE');
    assert.equal(error?.extensions.rule, 'sunset-order');
    assert.equal(
      error?.detail,
      'sunset-order: the sunset of v1 (2026-01-01) is 9 days before its deprecation (2026-01-10).',
    );
    assert.equal(checkSunsetOrder({ ...schedule, sunsetAt: schedule.deprecatedAt - 1 })?.code, 'INVALID_SCHEDULE');
  });

  it('refuses a deprecation time that is not an instant', () => {
    assert.equal(checkSunsetOrder({ ...schedule, deprecatedAt: Number.NaN })?.code, 'INVALID_SCHEDULE');
  });
});
