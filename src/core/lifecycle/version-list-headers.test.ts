import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LifecycleVersion } from './schedule.ts';
import { at, clockAt, scheduleOf } from '../../../test/support/lifecycle-dates.ts';
import { versionListHeaders } from './version-list-headers.ts';

const versions: LifecycleVersion[] = [
  { name: 'v3', releasedAt: at('2026-01-01') },
  {
    name: 'v1',
    releasedAt: at('2024-01-01'),
    schedule: scheduleOf({ deprecatedAt: '2025-01-01', sunsetAt: '2025-07-01' }),
  },
  {
    name: 'v2',
    releasedAt: at('2025-01-01'),
    schedule: scheduleOf({ version: 'v2', deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' }),
  },
];

describe('versionListHeaders', () => {
  it('lists current and deprecated versions oldest first, leaving removed ones out', () => {
    const { headers, changesAt } = versionListHeaders({ versions, clock: clockAt('2026-03-01') });
    assert.deepEqual(headers, { 'api-supported-versions': 'v3', 'api-deprecated-versions': 'v2' });
    assert.equal(changesAt, at('2026-07-01') + 1);
  });

  it('keeps a version in the deprecated list up to its sunset instant', () => {
    assert.equal(
      versionListHeaders({ versions, clock: clockAt('2025-07-01') }).headers['api-deprecated-versions'],
      'v1, v2',
    );
    assert.equal(
      versionListHeaders({ versions, clock: clockAt(at('2025-07-01') + 1) }).headers['api-deprecated-versions'],
      'v2',
    );
  });

  it('omits an empty list', () => {
    assert.deepEqual(versionListHeaders({ versions: [versions[0]!], clock: clockAt(0) }), {
      headers: { 'api-supported-versions': 'v3' },
      changesAt: undefined,
    });
  });
});
