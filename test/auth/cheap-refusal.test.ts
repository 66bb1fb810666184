import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Storage } from '../../src/kernel/ports/index.ts';
import { createApiKey } from '../../src/loop/access/auth/api-keys.ts';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, testEpoch } from '../support/test-app.ts';

const config = {
  env: { VERSIONARY_CONFIG: '/c.json' },
  files: { '/c.json': JSON.stringify({ rateLimit: { max: 3, windowSeconds: 60 } }) },
};
const guess = (i: number) => ({ authorization: `Bearer vk_${i.toString(16).padStart(16, '0')}.${'A'.repeat(43)}` });

/** Count the key lookups: each one is a database read. */
function counting(): { lookups: () => number; wrap: (storage: Storage) => Storage } {
  let lookups = 0;
  return {
    lookups: () => lookups,
    wrap: (storage) => ({
      ...storage,
      apiKeys: {
        ...storage.apiKeys,
        find: async (id) => {
          lookups++;
          return storage.apiKeys.find(id);
        },
      },
    }),
  };
}

describe('cheap refusal first', () => {
  it('refuses key guesses from an address over its budget, and still serves a valid key from it', async () => {
    const probe = counting();
    const t = await createTestApp({ ...config, wrapStorage: probe.wrap });
    const statuses: number[] = [];
    for (let i = 1; i <= 10; i++)
      statuses.push(
        (await t.app.inject({ url: '/api/v2/users', headers: guess(i), remoteAddress: '198.51.100.4' })).statusCode,
      );
    assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    // Each guess costs one key lookup: refusing before it would refuse valid keys from the address too.
    assert.equal(probe.lookups(), 10);
    const refused = await t.app.inject({ url: '/api/v2/users', headers: guess(99), remoteAddress: '198.51.100.4' });
    assertProblem(refused, { status: 429, code: 'RATE_LIMITED' });
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const { key } = await createApiKey({ store: t.storage.apiKeys, name: 'k', roles: ['read'], now: testEpoch });
    assert.equal(
      (
        await t.app.inject({
          url: '/api/v2/users',
          headers: { authorization: `Bearer ${key}` },
          remoteAddress: '198.51.100.4',
        })
      ).statusCode,
      200,
      "a valid key is not refused for other requests' failures",
    );
    assert.equal(
      (await t.app.inject({ url: '/api/v2/users', headers: guess(100), remoteAddress: '198.51.100.5' })).statusCode,
      401,
      'another address has its own budget',
    );
    await t.close();
  });

  it('counts anonymous requests per address before anything else, and groups IPv6 by /64', async () => {
    const probe = counting();
    const t = await createTestApp({ ...config, wrapStorage: probe.wrap });
    const none = { authorization: '' };
    const statuses: number[] = [];
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::3', '2001:db8:1:2::4']) {
      statuses.push((await t.app.inject({ url: '/api/v2/users', headers: none, remoteAddress: ip })).statusCode);
    }
    assert.deepEqual(statuses, [401, 401, 401, 429], 'four addresses of one /64 share one budget');
    assert.equal(
      (await t.app.inject({ url: '/api/v2/users', headers: none, remoteAddress: '2001:db8:1:3::1' })).statusCode,
      401,
      'the next /64 does not',
    );
    // An address over its anonymous budget refuses a failed key too, once it is looked up.
    assert.equal(
      (await t.app.inject({ url: '/api/v2/users', headers: guess(5), remoteAddress: '2001:db8:1:2::9' })).statusCode,
      429,
    );
    assert.equal(probe.lookups(), 1);
    await t.close();
  });

  it('counts valid keys per key, not per address', async () => {
    const t = await createTestApp(config);
    const { key } = await createApiKey({ store: t.storage.apiKeys, name: 'k', roles: ['read'], now: testEpoch });
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await t.app.inject({ url: '/api/v2/users', headers: { authorization: '' }, remoteAddress: '203.0.113.1' }))
          .statusCode,
        401,
      );
    assert.equal(
      (
        await t.app.inject({
          url: '/api/v2/users',
          headers: { authorization: `Bearer ${key}` },
          remoteAddress: '203.0.113.2',
        })
      ).statusCode,
      200,
    );
    await t.close();
  });
});
