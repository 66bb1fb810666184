import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildChangelog } from './changelog.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

test('an undated version gets no "released" entry rather than a made-up date', () => {
  const { entries } = buildChangelog({
    versions: [
      { name: 'v1', first: true, changes: [] },
      { name: 'v2', releasedAt: day('2026-03-02'), changes: ['Books gain an isbn.'] },
    ],
    now: day('2026-06-01'),
  });
  assert.deepEqual(
    entries.map((e) => e.id),
    ['v2:released'],
  );
});

test('"the first version" is said of the first version only', () => {
  const { entries } = buildChangelog({
    versions: [
      { name: 'v1', first: true, releasedAt: day('2025-01-15'), changes: [] },
      // A gateway's v2, read from its OpenAPI document, declares no changes: it is still not the first.
      { name: 'v2', releasedAt: day('2026-03-02'), changes: [] },
    ],
    now: day('2026-06-01'),
  });
  const summary = (id: string) => entries.find((e) => e.id === id)?.summary;
  assert.equal(summary('v1:released'), 'v1 is the first version.');
  assert.doesNotMatch(summary('v2:released') ?? '', /first version/);
});
