import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, createTestApp } from '../support/test-app.ts';

const config = (file: unknown) => ({
  env: { VERSIONARY_CONFIG: '/c.json' },
  files: { '/c.json': JSON.stringify(file) },
});

test('each client has its own limit; over it the answer is 429 with Retry-After, RateLimit headers and a problem', async () => {
  const t = await createTestApp(config({ rateLimit: { max: 3, windowSeconds: 60, roles: { admin: { max: 5 } } } }));
  const { key } = (
    await t.app.inject({
      method: 'POST',
      url: '/admin/v1/api-keys',
      headers: adminHeaders,
      payload: { name: 'r', roles: ['read'] },
    })
  ).json();
  const reader = { authorization: `Bearer ${key}` };
  for (let i = 0; i < 3; i++) {
    const ok = await t.app.inject({ url: '/api/v2/users', headers: reader });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['ratelimit-policy'], '"default";q=3;w=60');
    assert.match(String(ok.headers.ratelimit), new RegExp(`^"default";r=${2 - i};t=\\d+$`));
  }
  const limited = await t.app.inject({ url: '/api/v2/users', headers: reader });
  assertProblem(limited, { status: 429, code: 'RATE_LIMITED' });
  assert.ok(Number(limited.headers['retry-after']) > 0);
  assert.match(String(limited.headers.ratelimit), /r=0/);
  // The admin (another client, a more generous role) is unaffected.
  assert.equal((await t.app.inject({ url: '/api/v2/users', headers: adminHeaders })).statusCode, 200);
  t.clock.advance(61_000);
  assert.equal((await t.app.inject({ url: '/api/v2/users', headers: reader })).statusCode, 200, 'a new window');
  await t.close();
});

test('unauthenticated requests and failed credentials are limited per IP', async () => {
  const t = await createTestApp(config({ rateLimit: { max: 2, windowSeconds: 60 } }));
  const guess = { authorization: 'Bearer vk_0000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
  assert.equal(
    (await t.app.inject({ url: '/api/v2/users', headers: guess, remoteAddress: '10.1.1.1' })).statusCode,
    401,
  );
  assert.equal(
    (await t.app.inject({ url: '/api/v2/users', headers: guess, remoteAddress: '10.1.1.1' })).statusCode,
    401,
  );
  assert.equal(
    (await t.app.inject({ url: '/api/v2/users', headers: guess, remoteAddress: '10.1.1.1' })).statusCode,
    429,
  );
  assert.equal(
    (await t.app.inject({ url: '/api/versions', headers: { authorization: '' }, remoteAddress: '10.1.1.2' }))
      .statusCode,
    200,
  );
  await t.close();
});
