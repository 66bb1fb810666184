import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryRateLimitStore } from './memory-store.ts';
import { runRateLimitStoreContract } from '../../../test/support/rate-limit-store-contract.ts';

const now = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('memory store: the store contract', () =>
  runRateLimitStoreContract({ create: async () => createMemoryRateLimitStore() }));

describe('createMemoryRateLimitStore', () => {
  test('resetAt is exactly now + windowMs, and a hit at resetAt opens a new window', async () => {
    const store = createMemoryRateLimitStore();
    assert.deepEqual(await store.hit({ key: 'a', windowMs: 1000, now }), { count: 1, resetAt: now + 1000 });
    assert.deepEqual(await store.hit({ key: 'a', windowMs: 1000, now: now + 999 }), { count: 2, resetAt: now + 1000 });
    assert.deepEqual(await store.hit({ key: 'a', windowMs: 1000, now: now + 1000 }), { count: 1, resetAt: now + 2000 });
  });

  test('a returned hit is a copy: callers cannot change the stored count', async () => {
    const store = createMemoryRateLimitStore();
    const hit = await store.hit({ key: 'a', windowMs: 1000, now });
    hit.count = 99;
    assert.equal((await store.hit({ key: 'a', windowMs: 1000, now })).count, 2);
  });

  test('expired windows are swept once the sweep interval has passed on the clock', async () => {
    const store = createMemoryRateLimitStore({ sweepIntervalMs: 5000 });
    for (let i = 0; i < 100; i++) await store.hit({ key: `ip:10.0.0.${i}`, windowMs: 1000, now });
    assert.equal(store.size(), 100);
    // Windows have expired but the interval has not passed: nothing swept yet, only the new key added.
    await store.hit({ key: 'late', windowMs: 1000, now: now + 2000 });
    assert.equal(store.size(), 101);
    await store.hit({ key: 'later', windowMs: 1000, now: now + 5000 });
    assert.deepEqual(store.size(), 1, 'only the window just opened is left');
  });

  test('maxKeys bounds memory within one window by dropping the oldest window', async () => {
    const store = createMemoryRateLimitStore({ maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await store.hit({ key, windowMs: 60_000, now });
    assert.equal(store.size(), 3);
    assert.equal((await store.hit({ key: 'd', windowMs: 60_000, now })).count, 2, 'the newest window is kept');
    assert.equal(
      (await store.hit({ key: 'a', windowMs: 60_000, now })).count,
      1,
      'the oldest was dropped and starts afresh',
    );
  });

  test('at maxKeys, expired windows go before any live one is dropped', async () => {
    const store = createMemoryRateLimitStore({ maxKeys: 2, sweepIntervalMs: 1e9 });
    await store.hit({ key: 'live', windowMs: 60_000, now });
    await store.hit({ key: 'short', windowMs: 10, now });
    await store.hit({ key: 'new', windowMs: 60_000, now: now + 100 });
    assert.equal((await store.hit({ key: 'live', windowMs: 60_000, now: now + 100 })).count, 2);
  });
});
