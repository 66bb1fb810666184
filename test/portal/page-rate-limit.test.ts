import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp } from '../support/test-app.ts';

const limits = {
  env: { VERSIONARY_CONFIG: '/c.json' },
  files: { '/c.json': JSON.stringify({ rateLimit: { max: 3, windowSeconds: 60 } }) },
};
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const unsubscribe = '/notices/unsubscribe?client=cl_0123456789abcdef&contact=dev%40acme.test&token=forged';

const guessers: Array<[string, InjectOptions, number]> = [
  ['sign-in', { method: 'POST', url: '/portal/sign-in', payload: 'key=vk_guess.guess', headers: form }, 401],
  ['personal feed', { url: '/portal/feed/key_guess.mac' }, 404],
  ['unsubscribe page', { url: unsubscribe }, 403],
  [
    'one-click unsubscribe',
    { method: 'POST', url: unsubscribe, payload: 'List-Unsubscribe=One-Click', headers: form },
    403,
  ],
];

for (const [name, request, refused] of guessers) {
  test(`${name}: the API's per-address budget, then 429 with Retry-After and RateLimit fields`, async () => {
    const t = await createTestApp({ anonymous: true, ...limits });
    const from = (remoteAddress: string) => t.app.inject({ ...request, remoteAddress });
    for (let i = 0; i < 3; i++) {
      const res = await from('192.0.2.30');
      assert.equal(res.statusCode, refused, `${name} #${i + 1}: ${res.body.slice(0, 200)}`);
      assert.equal(res.headers['ratelimit-policy'], '"default";q=3;w=60');
      assert.equal(res.headers.ratelimit, `"default";r=${2 - i};t=60`);
    }
    const limited = await from('192.0.2.30');
    assertProblem(limited, { status: 429, code: 'RATE_LIMITED' });
    assert.equal(limited.headers['retry-after'], '60');
    assert.equal(limited.headers.ratelimit, '"default";r=0;t=60');
    assert.equal((await from('192.0.2.31')).statusCode, refused, 'another address has its own budget');
    assert.equal(
      (await t.app.inject({ url: '/api/v2/users', remoteAddress: '192.0.2.30' })).statusCode,
      401,
      'the API budget is not spent by the pages',
    );
    t.clock.advance(60_000);
    assert.equal((await from('192.0.2.30')).statusCode, refused, 'a new window, a new budget');
    await t.close();
  });
}

test('the docs, the sign-in form itself and the dashboard are not limited', async () => {
  const t = await createTestApp({ anonymous: true, ...limits });
  for (const url of ['/docs', '/portal/sign-in', '/portal', '/docs/changelog']) {
    for (let i = 0; i < 5; i++) assert.ok((await t.app.inject({ url })).statusCode < 400, url);
    assert.equal((await t.app.inject({ url })).headers.ratelimit, undefined, url);
  }
  await t.close();
});
