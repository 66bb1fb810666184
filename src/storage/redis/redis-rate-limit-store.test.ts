import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { runRateLimitStoreContract } from '../../../test/support/rate-limit-store-contract.ts';
import { createRedisRateLimitStore } from './redis-rate-limit-store.ts';

const url = 'redis://127.0.0.1:6379';
// Every key this run writes lives under one prefix, deleted afterwards.
const runPrefix = `versionary-test:${randomUUID()}:`;

async function connect(): Promise<Redis | undefined> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch {
    redis.disconnect();
    return undefined;
  }
}

const redis = await connect();
const skip = redis ? false : `Redis is not reachable at ${url}; start it to run the Redis rate-limit store tests`;
let tests = 0;
const fresh = () => createRedisRateLimitStore({ redis: redis!, prefix: `${runPrefix}${++tests}:` });

describe('Redis store', { skip }, () => {
  before(async () => {
    assert.equal(await redis!.ping(), 'PONG');
  });
  after(async () => {
    const keys = await redis!.keys(`${runPrefix}*`);
    if (keys.length > 0) await redis!.del(...keys);
    await redis!.quit();
  });

  describe('the store contract', () => runRateLimitStoreContract({ create: async () => fresh(), toleranceMs: 1000 }));

  test('writes under its prefix with an expiry of windowMs', async () => {
    const store = createRedisRateLimitStore({ redis: redis!, prefix: `${runPrefix}expiry:` });
    await store.hit({ key: 'ip:203.0.113.7', windowMs: 60_000, now: Date.now() });
    const ttl = await redis!.pttl(`${runPrefix}expiry:ip:203.0.113.7`);
    assert.ok(ttl > 59_000 && ttl <= 60_000, `pttl ${ttl}`);
    assert.equal(await redis!.get(`${runPrefix}expiry:ip:203.0.113.7`), '1');
  });

  test('Redis expires the window: a hit after it opens a new one', async () => {
    const store = fresh();
    await store.hit({ key: 'a', windowMs: 100, now: Date.now() });
    assert.equal((await store.hit({ key: 'a', windowMs: 100, now: Date.now() })).count, 2);
    await sleep(150);
    assert.equal((await store.hit({ key: 'a', windowMs: 100, now: Date.now() })).count, 1);
  });

  test('a key found without an expiry is given one instead of counting for ever', async () => {
    const prefix = `${runPrefix}stray:`;
    await redis!.set(`${prefix}a`, '7');
    const hit = await createRedisRateLimitStore({ redis: redis!, prefix }).hit({ key: 'a', windowMs: 60_000, now: 0 });
    assert.deepEqual(hit, { count: 8, resetAt: 60_000 });
    assert.ok((await redis!.pttl(`${prefix}a`)) > 0);
  });
});
