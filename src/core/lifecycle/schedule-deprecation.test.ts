import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LifecycleVersion } from './schedule.ts';
import { scheduleDeprecation } from './schedule-deprecation.ts';
import { at, caught, clockAt, days, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

const versions: LifecycleVersion[] = [
  { name: 'v1', releasedAt: at('2023-01-01') },
  { name: 'v2', releasedAt: at('2025-01-01') },
];
const clock = clockAt('2026-01-01T12:00:00Z');

describe('scheduleDeprecation', () => {
  it('deprecates now and sets the sunset 6 months of 30 days later, not removed', () => {
    const { schedule, warnings } = scheduleDeprecation({ version: 'v1', versions, clock });
    assert.deepEqual(schedule, {
      version: 'v1',
      deprecatedAt: clock.now(),
      sunsetAt: clock.now() + days(180),
      removed: false,
      reason: 'planned',
    });
    assert.deepEqual(warnings, []);
  });

  it('takes a notice in months and explicit ISO or epoch dates', () => {
    const year = scheduleDeprecation({ version: 'v1', versions, clock, noticeMonths: 12, audience: 'enterprise' });
    assert.equal(year.schedule.sunsetAt - year.schedule.deprecatedAt, days(360));
    const named = scheduleDeprecation({
      version: 'v1',
      versions,
      clock,
      deprecatedAt: '2026-02-01',
      sunsetAt: at('2026-12-01'),
    });
    assert.equal(named.schedule.deprecatedAt, at('2026-02-01'));
    assert.equal(named.schedule.sunsetAt, at('2026-12-01'));
  });

  it('refuses too short a notice without adjusting it', () => {
    const error = caught(() => scheduleDeprecation({ version: 'v1', versions, clock, noticeMonths: 3 }));
    assert.equal(error.code, 'POLICY_VIOLATION');
    assert.equal(
      error.detail,
      'notice-period: public APIs need at least 180 days of notice before sunset; v1 gives 90 days (2026-01-01 → 2026-04-01).',
    );
  });

  it('needs 12 months for enterprise APIs', () => {
    const error = caught(() => scheduleDeprecation({ version: 'v1', versions, clock, audience: 'enterprise' }));
    assert.match(error.detail, /^notice-period: enterprise APIs need at least 360 days .* v1 gives 180 days/);
  });

  it('lets a critical fix give short notice, but only with a named sunset date', () => {
    const ok = scheduleDeprecation({
      version: 'v1',
      versions,
      clock,
      reason: 'critical-fix',
      sunsetAt: '2026-01-15T00:00:00Z',
    });
    assert.equal(ok.schedule.reason, 'critical-fix');
    assert.equal(ok.schedule.sunsetAt, at('2026-01-15'));
    const vague = caught(() =>
      scheduleDeprecation({ version: 'v1', versions, clock, reason: 'critical-fix', noticeMonths: 1 }),
    );
    assert.equal(vague.extensions.rule, 'concrete-sunset');
  });

  it('refuses the newest version with NO_REPLACEMENT and an unknown one with VERSION_UNKNOWN', () => {
    assert.equal(caught(() => scheduleDeprecation({ version: 'v2', versions, clock })).code, 'NO_REPLACEMENT');
    assert.equal(caught(() => scheduleDeprecation({ version: 'v7', versions, clock })).code, 'VERSION_UNKNOWN');
  });

  it('refuses a sunset before the deprecation with INVALID_SCHEDULE', () => {
    const error = caught(() =>
      scheduleDeprecation({
        version: 'v1',
        versions,
        clock,
        reason: 'critical-fix',
        deprecatedAt: '2026-03-01',
        sunsetAt: '2026-02-01',
      }),
    );
    assert.equal(error.code, 'INVALID_SCHEDULE');
    assert.equal(error.extensions.rule, 'sunset-order');
  });

  it('reports every violation at once', () => {
    const error = caught(() =>
      scheduleDeprecation({
        version: 'v2',
        versions,
        clock,
        audience: 'enterprise',
        deprecatedAt: '2026-03-01',
        sunsetAt: '2026-02-01',
      }),
    );
    assert.equal(error.code, 'POLICY_VIOLATION');
    const rules = (error.extensions.violations as Array<{ rule: string; code: string }>).map(
      (v) => `${v.rule}:${v.code}`,
    );
    assert.deepEqual(rules, [
      'sunset-order:INVALID_SCHEDULE',
      'notice-period:POLICY_VIOLATION',
      'replacement-exists:NO_REPLACEMENT',
    ]);
    assert.match(
      error.detail,
      /^deprecation of v2: 3 lifecycle problem\(s\): sunset-order: .* \| notice-period: .* \| replacement-exists: /,
    );
  });

  it('refuses bad input: unparseable dates, a bad notice, or both notice and sunset', () => {
    const bad = caught(() => scheduleDeprecation({ version: 'v1', versions, clock, sunsetAt: 'next summer' }));
    assert.equal(bad.code, 'INVALID_SCHEDULE');
    assert.match(
      bad.detail,
      /sunsetAt must be epoch milliseconds or an ISO 8601 date with a time zone; got "next summer"/,
    );
    assert.equal(
      caught(() => scheduleDeprecation({ version: 'v1', versions, clock, noticeMonths: 0 })).code,
      'INVALID_SCHEDULE',
    );
    assert.equal(
      caught(() => scheduleDeprecation({ version: 'v1', versions, clock, noticeMonths: Number.NaN })).code,
      'INVALID_SCHEDULE',
    );
    const both = caught(() =>
      scheduleDeprecation({ version: 'v1', versions, clock, noticeMonths: 7, sunsetAt: '2027-01-01' }),
    );
    assert.equal(both.extensions.rule, 'schedule-input');
  });

  it('counts notice from now when the deprecation is backdated', () => {
    const error = caught(() =>
      scheduleDeprecation({
        version: 'v1',
        versions,
        clock,
        deprecatedAt: '2025-10-01',
        sunsetAt: '2026-04-01',
      }),
    );
    assert.match(error.detail, /v1 gives 89\.5 days \(2026-01-01 → 2026-04-01\)/);
  });

  it("schedules a deprecated version anew by the spec's rule when given only a notice period", () => {
    const existing = scheduleOf({ deprecatedAt: '2025-07-15', sunsetAt: '2026-01-11' });
    const deprecated = [{ ...versions[0]!, schedule: existing }, versions[1]!];
    const { schedule } = scheduleDeprecation({ version: 'v1', versions: deprecated, clock, noticeMonths: 7 });
    assert.equal(schedule.deprecatedAt, clock.now());
    assert.equal(schedule.sunsetAt, clock.now() + 210 * 86_400_000);
    assert.equal(schedule.removed, false);
  });

  it('refuses dates for a version that is already deprecated: moving them is rescheduling', () => {
    const existing = scheduleOf({ deprecatedAt: '2025-12-01', sunsetAt: '2026-06-01' });
    const deprecated = [{ ...versions[0]!, schedule: existing }, versions[1]!];
    const error = caught(() =>
      scheduleDeprecation({ version: 'v1', versions: deprecated, clock, deprecatedAt: clock.now() }),
    );
    assert.equal(error.code, 'INVALID_SCHEDULE');
    assert.match(
      error.detail,
      /^lifecycle-transition: 'schedule-deprecation' cannot happen to a version in state 'sunset_window'.* use rescheduleDeprecation/,
    );
  });

  it('returns the breaking-spacing warning instead of throwing it', () => {
    const close = [...versions, { name: 'v3', releasedAt: at('2025-03-01') }];
    const { warnings } = scheduleDeprecation({ version: 'v1', versions: close, clock });
    assert.deepEqual(
      warnings.map((w) => w.rule),
      ['breaking-spacing'],
    );
  });
});
