import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFallbackRateLimitStore } from './fallback-store.ts';
import { createMemoryRateLimitStore } from './memory-store.ts';
import type { RateLimitStore } from '../ports/rate-limit.ts';

const now = Date.UTC(2026, 0, 15);
const hit = { key: 'client-a', windowMs: 60_000, now };

function primary(mode: { value: 'ok' | 'fail' | 'hang' }, calls: { n: number }): RateLimitStore {
  const real = createMemoryRateLimitStore();
  return {
    hit: (options) => {
      calls.n++;
      if (mode.value === 'fail') return Promise.reject(new Error('connection refused'));
      if (mode.value === 'hang') return new Promise(() => {});
      return real.hit(options);
    },
    peek: (options) => {
      calls.n++;
      if (mode.value === 'fail') return Promise.reject(new Error('connection refused'));
      if (mode.value === 'hang') return new Promise(() => {});
      return real.peek(options);
    },
  };
}

function logs() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      warn: (_: object, msg: string) => void lines.push(`warn ${msg}`),
      info: (_: object, msg: string) => void lines.push(`info ${msg}`),
    },
  };
}

test('a hanging primary costs at most the timeout, then the circuit opens and calls stop reaching it', async () => {
  const mode = { value: 'hang' as 'ok' | 'fail' | 'hang' };
  const calls = { n: 0 };
  let clock = 0;
  const { lines, log } = logs();
  const store = createFallbackRateLimitStore({
    primary: primary(mode, calls),
    fallback: createMemoryRateLimitStore(),
    timeoutMs: 30,
    failureThreshold: 3,
    openMs: 1000,
    now: () => clock,
    log,
  });
  for (let i = 1; i <= 3; i++) {
    const started = Date.now();
    assert.equal((await store.hit(hit)).count, i, 'counted locally');
    assert.ok(Date.now() - started < 1000);
  }
  assert.equal(store.fallingBack(), true);
  assert.deepEqual(lines, ['warn rate-limit store unavailable: counting locally, per instance']);
  for (let i = 0; i < 10; i++) await store.hit(hit);
  assert.equal(calls.n, 3, 'no call reaches the primary while the circuit is open');
  assert.equal(store.failures(), 3);
  // After openMs one call probes; the primary is back, so the circuit closes.
  mode.value = 'ok';
  clock = 1001;
  assert.equal((await store.hit(hit)).count, 1, 'counted by the primary again');
  assert.equal(store.fallingBack(), false);
  assert.equal(lines.at(-1), 'info rate-limit store is back: counting globally again');
});

test('a failing probe keeps the circuit open for another period', async () => {
  const mode = { value: 'fail' as 'ok' | 'fail' | 'hang' };
  const calls = { n: 0 };
  let clock = 0;
  const store = createFallbackRateLimitStore({
    primary: primary(mode, calls),
    fallback: createMemoryRateLimitStore(),
    failureThreshold: 1,
    openMs: 100,
    now: () => clock,
    log: logs().log,
  });
  await store.hit(hit);
  assert.equal(store.fallingBack(), true);
  clock = 150;
  await store.hit(hit);
  assert.equal(calls.n, 2);
  await store.hit(hit);
  assert.equal(calls.n, 2, 'open again until 250');
  assert.equal(store.fallingBack(), true);
});

test('the fallback still limits: the per-client count keeps growing locally', async () => {
  const store = createFallbackRateLimitStore({
    primary: primary({ value: 'fail' }, { n: 0 }),
    fallback: createMemoryRateLimitStore(),
    failureThreshold: 1,
    log: logs().log,
  });
  const counts = [];
  for (let i = 0; i < 5; i++) counts.push((await store.hit(hit)).count);
  assert.deepEqual(counts, [1, 2, 3, 4, 5]);
});

test('a peek at a hanging primary answers from the local store within the timeout and counts as a failure', async () => {
  const mode = { value: 'hang' as 'ok' | 'fail' | 'hang' };
  const calls = { n: 0 };
  const fallback = createMemoryRateLimitStore();
  await fallback.hit(hit);
  const { log } = logs();
  const store = createFallbackRateLimitStore({
    primary: primary(mode, calls),
    fallback,
    timeoutMs: 20,
    failureThreshold: 1,
    log,
  });
  const seen = await store.peek({ key: hit.key, now });
  assert.equal(seen?.count, 1, 'the local count answers');
  assert.equal(store.failures(), 1);
  assert.equal(store.fallingBack(), true);
  await store.peek({ key: hit.key, now });
  assert.equal(calls.n, 1, 'an open circuit keeps peeks away from the primary');
});
