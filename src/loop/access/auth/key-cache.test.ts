import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createInProcessChangeFeed } from '../../../kernel/change-feed/in-process-feed.ts';
import type { ChangeFeed } from '../../../kernel/ports/index.ts';
import { createApiKeyCache } from './key-cache.ts';
import type { Principal } from '../../../kernel/ports/principal.ts';

const principal = (id: string): Principal => ({ id, roles: new Set(['read']), kind: 'api-key' });

/** The in-process feed, with a health switch: the cache must stop trusting itself when it is off. */
function switchableFeed(): ChangeFeed & { healthy: boolean } {
  const inner = createInProcessChangeFeed();
  const feed = {
    healthy: true,
    publish: inner.publish,
    subscribe: inner.subscribe,
    close: inner.close,
    health: () => ({ healthy: feed.healthy, transport: 'in-process', unhealthySince: feed.healthy ? null : 0 }),
  };
  return feed;
}

/** A verifier that counts how often the store would be asked. */
function counting(answer: Principal | undefined) {
  const calls = { n: 0 };
  return {
    calls,
    verify: async () => {
      calls.n++;
      return answer;
    },
  };
}

describe('API key cache', () => {
  it('answers a verified key from memory until the feed says keys changed', async () => {
    const feed = switchableFeed();
    const cache = createApiKeyCache({ feed, now: () => 0 });
    const { calls, verify } = counting(principal('key_a'));
    assert.equal((await cache.lookup('d1', verify))?.id, 'key_a');
    assert.equal((await cache.lookup('d1', verify))?.id, 'key_a');
    assert.equal(calls.n, 1);
    await feed.publish('api-keys');
    assert.equal(cache.size(), 0);
    await cache.lookup('d1', verify);
    assert.equal(calls.n, 2);
    await feed.publish('clients');
    assert.equal(cache.size(), 0, 'a client change empties it too');
  });

  it('keeps nothing for a key that failed, so unknown keys cannot fill it', async () => {
    const cache = createApiKeyCache({ feed: switchableFeed(), now: () => 0 });
    const { calls, verify } = counting(undefined);
    assert.equal(await cache.lookup('bad', verify), undefined);
    assert.equal(await cache.lookup('bad', verify), undefined);
    assert.equal(calls.n, 2);
    assert.equal(cache.size(), 0);
  });

  it('expires an entry after the TTL, the safety net for a lost message', async () => {
    let now = 1_000;
    const cache = createApiKeyCache({ feed: switchableFeed(), now: () => now, ttlMs: 30_000 });
    const { calls, verify } = counting(principal('key_a'));
    await cache.lookup('d1', verify);
    now += 29_999;
    await cache.lookup('d1', verify);
    assert.equal(calls.n, 1);
    now += 1;
    await cache.lookup('d1', verify);
    assert.equal(calls.n, 2);
  });

  it('is emptied and bypassed while the feed is unhealthy, and used again after', async () => {
    const feed = switchableFeed();
    const cache = createApiKeyCache({ feed, now: () => 0 });
    const { calls, verify } = counting(principal('key_a'));
    await cache.lookup('d1', verify);
    feed.healthy = false;
    await cache.lookup('d1', verify);
    await cache.lookup('d1', verify);
    assert.equal(calls.n, 3, 'every lookup verifies while a revocation could be missed');
    assert.equal(cache.size(), 0);
    feed.healthy = true;
    await cache.lookup('d1', verify);
    await cache.lookup('d1', verify);
    assert.equal(calls.n, 4);
  });

  it('does not store a verification that an invalidation overtook', async () => {
    const feed = switchableFeed();
    const cache = createApiKeyCache({ feed, now: () => 0 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pending = cache.lookup('d1', async () => {
      await gate;
      return principal('key_a');
    });
    await feed.publish('api-keys'); // the key is revoked while its lookup is in flight
    release();
    assert.equal((await pending)?.id, 'key_a', 'that request was checked before the revocation');
    assert.equal(cache.size(), 0, 'but the answer is not kept');
  });

  it('holds at most maxEntries keys, dropping the oldest', async () => {
    const cache = createApiKeyCache({ feed: switchableFeed(), now: () => 0, maxEntries: 2 });
    for (const d of ['d1', 'd2', 'd3']) await cache.lookup(d, async () => principal(d));
    assert.equal(cache.size(), 2);
    const { calls, verify } = counting(principal('d1'));
    await cache.lookup('d1', verify);
    assert.equal(calls.n, 1, 'the oldest entry was dropped');
  });

  it('finds a remembered key by itself, with its digest entry: gone with each invalidation, at its TTL, and while the feed is unhealthy', async () => {
    const feed = switchableFeed();
    let now = 0;
    const cache = createApiKeyCache({ feed, now: () => now, ttlMs: 1000, maxEntries: 2 });
    assert.equal(cache.byToken('vk_a'), undefined, 'never seen');
    cache.remember('vk_a', 'd1');
    assert.equal(cache.byToken('vk_a'), undefined, 'nothing to link to: no verified entry');
    await cache.lookup('d1', async () => principal('key_a'));
    cache.remember('vk_a', 'd1');
    assert.equal(cache.byToken('vk_a')?.id, 'key_a');
    feed.healthy = false;
    assert.equal(cache.byToken('vk_a'), undefined, 'not trusted while the feed is unhealthy');
    feed.healthy = true;
    await feed.publish('api-keys');
    assert.equal(cache.byToken('vk_a'), undefined, 'revoked or rotated: emptied with the digests');
    await cache.lookup('d1', async () => principal('key_a'));
    cache.remember('vk_a', 'd1');
    now = 1000;
    assert.equal(cache.byToken('vk_a'), undefined, 'expired with its entry');
    now = 0;
    for (const d of ['d2', 'd3']) {
      await cache.lookup(d, async () => principal(d));
      cache.remember(`vk_${d}`, d);
    }
    assert.equal(cache.byToken('vk_d2')?.id, 'd2');
    cache.remember('vk_d1', 'd1');
    assert.equal(cache.byToken('vk_d1'), undefined, 'd1 had left the digests (maxEntries)');
    await cache.lookup('d4', async () => principal('d4'));
    cache.remember('vk_d4', 'd4');
    assert.equal(cache.byToken('vk_d2'), undefined, 'bounded like the digests: the oldest goes');
    assert.equal(cache.byToken('vk_d4')?.id, 'd4');
  });

  it('stops listening when closed', async () => {
    const feed = switchableFeed();
    const cache = createApiKeyCache({ feed, now: () => 0 });
    cache.close();
    await cache.lookup('d1', async () => principal('key_a'));
    await feed.publish('api-keys');
    assert.equal(cache.size(), 1);
  });
});
