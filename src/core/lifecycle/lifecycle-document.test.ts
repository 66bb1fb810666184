import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildLifecycleDocument } from './lifecycle-document.ts';
import type { LifecycleVersion } from './schedule.ts';
import { at, clockAt, scheduleOf } from '../../../test/support/lifecycle-dates.ts';

const versions: LifecycleVersion[] = [
  { name: 'v2', releasedAt: at('2025-01-01'), openapiUrl: '/api/v2/openapi.json' },
  {
    name: 'v1',
    releasedAt: at('2023-01-01'),
    migrationUrl: 'https://example.com/migrate/v1-v2',
    openapiUrl: '/api/v1/openapi.json',
    schedule: scheduleOf({ deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' }),
  },
  {
    name: 'v0',
    releasedAt: at('2022-01-01'),
    schedule: scheduleOf({ version: 'v0', deprecatedAt: '2024-01-01', sunsetAt: '2024-07-01' }),
  },
];

describe('buildLifecycleDocument', () => {
  it('describes every version, oldest first, with state, status and ISO dates', () => {
    const doc = buildLifecycleDocument({ versions, clock: clockAt('2026-03-01') });
    assert.deepEqual(doc.versions, [
      {
        name: 'v0',
        state: 'removed',
        status: 'removed',
        releasedAt: '2022-01-01T00:00:00.000Z',
        deprecatedAt: '2024-01-01T00:00:00.000Z',
        sunsetAt: '2024-07-01T00:00:00.000Z',
        replacement: 'v2',
        migrationUrl: null,
        openapiUrl: null,
      },
      {
        name: 'v1',
        state: 'sunset_window',
        status: 'ending_soon',
        releasedAt: '2023-01-01T00:00:00.000Z',
        deprecatedAt: '2026-01-01T00:00:00.000Z',
        sunsetAt: '2026-07-01T00:00:00.000Z',
        replacement: 'v2',
        migrationUrl: 'https://example.com/migrate/v1-v2',
        openapiUrl: '/api/v1/openapi.json',
      },
      {
        name: 'v2',
        state: 'active',
        status: 'not_deprecated',
        releasedAt: '2025-01-01T00:00:00.000Z',
        deprecatedAt: null,
        sunsetAt: null,
        replacement: null,
        migrationUrl: null,
        openapiUrl: '/api/v2/openapi.json',
      },
    ]);
    assert.equal(doc.changesAt, '2026-07-01T00:00:00.001Z');
    assert.deepEqual(doc.policy, {
      audience: 'public',
      minimumNoticeDays: 180,
      endingSoonAfterDays: 30,
      warningDays: 30,
    });
  });

  it('is identical at any two instants before changesAt, and changes at it', () => {
    const first = buildLifecycleDocument({ versions, clock: clockAt('2026-01-15') });
    assert.equal(first.changesAt, '2026-01-31T00:00:00.001Z');
    assert.deepEqual(buildLifecycleDocument({ versions, clock: clockAt(at('2026-01-31')) }), first);
    const next = buildLifecycleDocument({ versions, clock: clockAt(at('2026-01-31') + 1) });
    assert.equal(next.versions[1]?.status, 'ending_soon');
  });

  it('has nothing to wait for when no schedule is pending', () => {
    const doc = buildLifecycleDocument({ versions: [versions[0]!], clock: clockAt(0), audience: 'enterprise' });
    assert.equal(doc.changesAt, null);
    assert.equal(doc.policy.minimumNoticeDays, 360);
  });
});
