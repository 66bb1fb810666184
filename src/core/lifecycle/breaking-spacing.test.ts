import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkBreakingSpacing } from './breaking-spacing.ts';
import { at, days } from '../../../test/support/lifecycle-dates.ts';

describe('checkBreakingSpacing', () => {
  it('warns once per pair of breaking releases under 360 days apart, in release order', () => {
    const warnings = checkBreakingSpacing([
      { name: 'v3', releasedAt: at('2025-06-01') },
      { name: 'v1', releasedAt: at('2024-01-01') },
      { name: 'v2', releasedAt: at('2025-01-01') },
    ]);
    assert.deepEqual(
      warnings.map((w) => w.extensions.versions),
      [['v2', 'v3']],
    );
    assert.equal(warnings[0]?.rule, 'breaking-spacing');
    assert.equal(
      warnings[0]?.detail,
      'breaking-spacing: breaking releases should be at least 360 days apart; v2 (2025-01-01) and v3 (2025-06-01) are 151 days apart.',
    );
  });

  it('is silent at exactly 360 days and warns one millisecond earlier', () => {
    const v1 = { name: 'v1', releasedAt: at('2024-01-01') };
    assert.deepEqual(checkBreakingSpacing([v1, { name: 'v2', releasedAt: v1.releasedAt + days(360) }]), []);
    assert.equal(checkBreakingSpacing([v1, { name: 'v2', releasedAt: v1.releasedAt + days(360) - 1 }]).length, 1);
  });

  it('ignores releases marked non-breaking', () => {
    assert.deepEqual(
      checkBreakingSpacing([
        { name: '2024-01-01', releasedAt: at('2024-01-01') },
        { name: '2024-02-01', releasedAt: at('2024-02-01'), breaking: false },
        { name: '2025-06-01', releasedAt: at('2025-06-01') },
      ]),
      [],
    );
  });
});
