import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isVersionaryError } from '../errors/index.ts';
import { assertLifecycleConfig, checkLifecycleConfig } from './check-lifecycle-config.ts';
import type { LifecycleVersion } from './schedule.ts';
import { at, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

const good: LifecycleVersion[] = [
  {
    name: 'v1',
    releasedAt: at('2023-01-01'),
    migrationUrl: 'https://example.com/migrate/v1-v2',
    schedule: scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' }),
  },
  { name: 'v2', releasedAt: at('2025-01-01') },
];

describe('checkLifecycleConfig', () => {
  it('accepts a conforming configuration', () => {
    assert.deepEqual(checkLifecycleConfig({ versions: good }), { violations: [], warnings: [] });
    assert.deepEqual(assertLifecycleConfig({ versions: good }), []);
  });

  it('measures stored notice from the deprecation time, whatever the date today', () => {
    const enterprise = checkLifecycleConfig({ versions: good, audience: 'enterprise' });
    assert.deepEqual(
      enterprise.violations.map((v) => v.extensions.rule),
      ['notice-period'],
    );
  });

  it('asks no notice of a version that is already removed, even with no dates between its deprecation and sunset', () => {
    const removed: LifecycleVersion[] = [
      {
        ...good[0]!,
        schedule: { ...scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-01-01' }), removed: true },
      },
      good[1]!,
    ];
    assert.deepEqual(checkLifecycleConfig({ versions: removed, audience: 'enterprise' }).violations, []);
    const noGuide = [{ ...removed[0]!, migrationUrl: '' }, good[1]!];
    assert.deepEqual(
      checkLifecycleConfig({ versions: noGuide }).violations.map((v) => v.extensions.rule),
      ['migration-guide'],
    );
  });

  it('reports every problem of every version at once', () => {
    const bad: LifecycleVersion[] = [
      {
        name: 'v1',
        releasedAt: at('2024-01-01'),
        schedule: scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2025-12-01' }),
      },
      {
        name: 'v2',
        releasedAt: at('2024-06-01'),
        schedule: scheduleOf({ version: 'v1', deprecatedAt: '2026-01-01', sunsetAt: '2026-03-01' }),
      },
      { name: 'v2', releasedAt: Number.NaN },
    ];
    const report = checkLifecycleConfig({ versions: bad, audience: 'galactic' });
    assert.deepEqual(
      report.violations.map((v) => `${v.extensions.rule}:${v.code}`),
      [
        'valid-config:INVALID_CONFIG',
        'valid-config:INVALID_CONFIG',
        'valid-config:INVALID_CONFIG',
        'valid-config:INVALID_CONFIG',
        'sunset-order:INVALID_SCHEDULE',
        'notice-period:POLICY_VIOLATION',
        'replacement-exists:NO_REPLACEMENT',
        'migration-guide:POLICY_VIOLATION',
        'notice-period:POLICY_VIOLATION',
        'replacement-exists:NO_REPLACEMENT',
        'migration-guide:POLICY_VIOLATION',
      ],
    );
    assert.deepEqual(
      report.warnings.map((w) => w.rule),
      ['breaking-spacing'],
    );
    assert.throws(
      () => assertLifecycleConfig({ versions: bad }),
      (error) => {
        assert.ok(isVersionaryError(error));
        assert.equal(error.code, 'INVALID_CONFIG');
        assert.equal((error.extensions.violations as unknown[]).length, 10);
        assert.match(error.detail, /^lifecycle configuration: 10 lifecycle problem\(s\): /);
        return true;
      },
    );
  });

  it('wraps even a single violation in INVALID_CONFIG at start', () => {
    assert.throws(
      () => assertLifecycleConfig({ versions: good, audience: 'enterprise' }),
      (error) => isVersionaryError(error) && error.code === 'INVALID_CONFIG' && /notice-period/.test(error.detail),
    );
  });
});

describe('the migration-guide rule', () => {
  const violations = (v1: LifecycleVersion) => checkLifecycleConfig({ versions: [v1, good[1]!] }).violations;

  it('needs a migration guide for a deprecated version only', () => {
    const { migrationUrl: _drop, ...noGuide } = good[0]!;
    assert.deepEqual(
      violations(noGuide).map((v) => v.detail),
      ['migration-guide: v1 is deprecated but links no migration guide (migrationUrl).'],
    );
    assert.deepEqual(
      violations({ ...noGuide, migrationUrl: '  ' }).map((v) => v.extensions.rule),
      ['migration-guide'],
    );
    assert.deepEqual(violations(good[0]!), []);
    assert.deepEqual(violations({ ...noGuide, schedule: undefined }), []);
  });
});
