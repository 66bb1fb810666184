import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFixedClock } from '../../../core/clock/index.ts';
import { createDiffCache } from './diff-cache.ts';

describe('createDiffCache', () => {
  const setup = (options: { maxEntries?: number; ttlMs?: number } = {}) => {
    const clock = createFixedClock(Date.UTC(2026, 0, 1));
    let generation = 0;
    const computed: string[] = [];
    const cache = createDiffCache<string>({ clock, generation: () => generation, ...options });
    const get = (from: string, to: string) =>
      cache.get({ from, to }, () => {
        computed.push(`${from}>${to}`);
        return `${from}>${to}@${generation}`;
      });
    return { cache, clock, get, computed, bump: () => generation++ };
  };

  it('computes a pair once and reuses it, each pair on its own', () => {
    const { get, computed } = setup();
    const first = get('v1', 'v2');
    assert.deepEqual([first.value, first.reused], ['v1>v2@0', false]);
    assert.ok(first.ms >= 0);
    assert.deepEqual(get('v1', 'v2'), { value: 'v1>v2@0', reused: true, ms: 0 });
    assert.equal(get('v2', 'v3').reused, false);
    assert.equal(get('v1', 'v3').reused, false, 'a pair is both versions, not either');
    assert.deepEqual(computed, ['v1>v2', 'v2>v3', 'v1>v3']);
  });

  it('computes every pair afresh in a new lifecycle generation', () => {
    const { get, computed, bump } = setup();
    get('v1', 'v2');
    get('v2', 'v3');
    bump();
    const fresh = get('v1', 'v2');
    assert.deepEqual([fresh.value, fresh.reused], ['v1>v2@1', false]);
    assert.equal(get('v2', 'v3').reused, false);
    assert.deepEqual(computed, ['v1>v2', 'v2>v3', 'v1>v2', 'v2>v3']);
  });

  it('expires an entry after its time to live, on the injected clock', () => {
    const { get, clock } = setup({ ttlMs: 1000 });
    get('v1', 'v2');
    clock.advance(999);
    assert.equal(get('v1', 'v2').reused, true);
    clock.advance(1);
    assert.equal(get('v1', 'v2').reused, false, 'a sunset may have passed since: the diff judges dates');
  });

  it('holds at most maxEntries pairs, dropping the least recently used', () => {
    const { cache, get } = setup({ maxEntries: 2 });
    get('v1', 'v2');
    get('v2', 'v3');
    get('v1', 'v2'); // used again: v2>v3 is now the oldest
    get('v1', 'v3');
    assert.equal(cache.size(), 2);
    assert.equal(get('v1', 'v2').reused, true);
    assert.equal(get('v2', 'v3').reused, false, 'dropped');
  });
});
