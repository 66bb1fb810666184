import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RateLimitStore } from '../../src/kernel/ports/rate-limit.ts';

/** Options for {@link runRateLimitStoreContract}. */
export interface RateLimitStoreContractOptions {
  /** A fresh, empty store per test (unique key prefix for shared backends). */
  create: () => Promise<RateLimitStore>;
  /** How far `resetAt` may fall short of `now + windowMs` (a real server's clock moves on). */
  toleranceMs?: number;
}

/**
 * The behaviour every {@link RateLimitStore} adapter must show, as node:test cases. Call it inside
 * a `describe` in each adapter's test file, so the memory and Redis stores answer the same way.
 */
export function runRateLimitStoreContract(options: RateLimitStoreContractOptions): void {
  const tolerance = options.toleranceMs ?? 0;
  const now = Date.UTC(2026, 0, 15, 12, 0, 0);

  test('the first hit opens a window of windowMs with count 1', async () => {
    const store = await options.create();
    const hit = await store.hit({ key: 'client-a', windowMs: 60_000, now });
    assert.equal(hit.count, 1);
    assert.ok(
      hit.resetAt <= now + 60_000 && hit.resetAt >= now + 60_000 - tolerance,
      `resetAt ${hit.resetAt - now} ms after now`,
    );
  });

  test('later hits in the window count up and keep its end', async () => {
    const store = await options.create();
    const first = await store.hit({ key: 'client-a', windowMs: 60_000, now });
    // The same `now`: a shared store runs windows on its own clock, so the contract cannot move time.
    const second = await store.hit({ key: 'client-a', windowMs: 60_000, now });
    const third = await store.hit({ key: 'client-a', windowMs: 60_000, now });
    assert.deepEqual([second.count, third.count], [2, 3]);
    assert.ok(Math.abs(third.resetAt - first.resetAt) <= tolerance, 'the window end does not slide');
  });

  test('keys are counted apart', async () => {
    const store = await options.create();
    await store.hit({ key: 'client-a', windowMs: 60_000, now });
    await store.hit({ key: 'client-a', windowMs: 60_000, now });
    assert.equal((await store.hit({ key: 'client-b', windowMs: 60_000, now })).count, 1);
  });

  test('peek reads the open window without counting, and nothing for an unknown key', async () => {
    const store = await options.create();
    assert.equal(await store.peek({ key: 'client-p', now }), undefined);
    const hit = await store.hit({ key: 'client-p', windowMs: 60_000, now });
    await store.hit({ key: 'client-p', windowMs: 60_000, now });
    const peeked = await store.peek({ key: 'client-p', now });
    assert.equal(peeked?.count, 2);
    assert.ok(Math.abs(peeked!.resetAt - hit.resetAt) <= tolerance + 5);
    assert.equal((await store.peek({ key: 'client-p', now }))?.count, 2, 'peeking counts nothing');
    assert.equal((await store.hit({ key: 'client-p', windowMs: 60_000, now })).count, 3);
  });

  test('concurrent hits are atomic: no two see the same count', async () => {
    const store = await options.create();
    const hits = await Promise.all(
      Array.from({ length: 50 }, () => store.hit({ key: 'client-a', windowMs: 60_000, now })),
    );
    assert.deepEqual(
      hits.map((h) => h.count).sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });
}
