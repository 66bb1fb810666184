import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declaredOrder, orderReleases } from './release-order.ts';

const at = (iso: string) => Date.parse(iso);
const year = 366 * 86_400_000;

describe('orderReleases: the declared order is the order', () => {
  it('places an undated version before a dated one declared after it', () => {
    const { releases, problems } = orderReleases([
      { name: 'v1' },
      { name: 'v2', releasedAt: at('2024-03-01T00:00:00Z') },
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(releases, [
      { name: 'v1', releasedAt: at('2024-03-01T00:00:00Z') - year, declared: false },
      { name: 'v2', releasedAt: at('2024-03-01T00:00:00Z'), declared: true },
    ]);
  });

  it('keeps a default date only where it fits the declared order', () => {
    const { releases } = orderReleases([
      { name: 'v1', fallback: at('2025-01-15T00:00:00Z') },
      { name: 'v2', releasedAt: at('2024-03-01T00:00:00Z'), fallback: at('2026-03-02T00:00:00Z') },
      { name: 'v3', fallback: at('2026-03-02T00:00:00Z') },
    ]);
    assert.deepEqual(
      releases.map((r) => [r.name, r.declared]),
      [
        ['v1', false],
        ['v2', true],
        ['v3', true],
      ],
    );
    assert.equal(releases[2]!.releasedAt, at('2026-03-02T00:00:00Z'));
  });

  it('puts undated versions between two dated ones strictly between them, and after the last a year apart', () => {
    const { releases } = orderReleases([
      { name: 'v1', releasedAt: 0 },
      { name: 'v2' },
      { name: 'v3' },
      { name: 'v4', releasedAt: 3000 },
      { name: 'v5' },
    ]);
    assert.deepEqual(
      releases.map((r) => r.releasedAt),
      [0, 1000, 2000, 3000, 3000 + year],
    );
  });

  it('reports declared dates that go back, naming both versions', () => {
    const { problems } = orderReleases([
      { name: 'v1', releasedAt: at('2025-01-01') },
      { name: 'v2', releasedAt: at('2024-01-01') },
    ]);
    assert.equal(problems.length, 1);
    assert.match(
      problems[0]!,
      /^v2 is released at 2024-01-01T00:00:00\.000Z, not after v1 \(2025-01-01T00:00:00\.000Z\)/,
    );
  });
});

describe('declaredOrder', () => {
  it('lists versions without code first, then the bundle in its own order, whatever the config order', () => {
    assert.deepEqual(declaredOrder({ configured: ['v2', 'v0', 'v1'], bundle: ['v1', 'v2'] }), ['v0', 'v1', 'v2']);
  });
});
