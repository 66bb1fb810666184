import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp } from '../support/test-app.ts';

const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

test('/favicon.ico and the icon every page names are served, cached for a long time', async () => {
  const t = await createTestApp({ anonymous: true });
  const page = (await t.app.inject({ url: '/docs' })).body;
  const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(page)?.[1];
  assert.ok(href, 'the page names its icon');
  for (const url of [href, '/favicon.ico']) {
    const res = await t.app.inject({ url });
    assert.equal(res.statusCode, 200, url);
    assert.equal(res.headers['content-type'], 'image/svg+xml');
    assert.match(String(res.headers['cache-control']), /^public, max-age=(\d+)$/);
    assert.ok(
      Number(/max-age=(\d+)/.exec(String(res.headers['cache-control']))![1]) >= 30 * 86_400,
      'cached for a month or more',
    );
    assert.match(res.body, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  }
  await t.close();
});

test('a browser gets a readable 404 page linking to /docs; API clients keep the problem JSON', async () => {
  const t = await createTestApp({ anonymous: true });
  for (const url of ['/docs/v9', '/nope', '/portal/nothing-here', '/docs/%3Cscript%3E']) {
    const page = await t.app.inject({ url, headers: { accept: browser } });
    assert.equal(page.statusCode, 404, url);
    assert.match(String(page.headers['content-type']), /^text\/html; charset=utf-8/, url);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.match(String(page.headers.vary), /Accept/);
    assert.match(page.body, /<h1>Page not found<\/h1>/);
    assert.match(page.body, /<a href="\/docs">API documentation<\/a>/);
    assert.doesNotMatch(page.body, /<script>/, 'the requested path is shown as text');
    for (const accept of [undefined, '*/*', 'application/json', 'application/problem+json']) {
      assertProblem(await t.app.inject({ url, headers: accept ? { accept } : {} }), { status: 404 });
    }
  }
  assert.match((await t.app.inject({ url: '/docs/v9', headers: { accept: browser } })).body, /No documentation for v9/);
  // The API and the management API answer programs, even when a browser asks.
  for (const url of ['/api/v9/users', '/api/v2/nothing', '/admin/v1/nothing']) {
    const res = await t.app.inject({ url, headers: { accept: browser } });
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/, url);
  }
  await t.close();
});

test('/ is a page for a browser and JSON for everyone else', async () => {
  const t = await createTestApp({ anonymous: true });
  const page = await t.app.inject({ url: '/', headers: { accept: browser } });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.match(page.body, /<a href="\/docs">API documentation<\/a>/);
  assert.match(page.body, /<a href="\/docs\/v2">v2<\/a>/);
  for (const accept of [undefined, '*/*', 'application/json']) {
    const res = await t.app.inject({ url: '/', headers: accept ? { accept } : {} });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers.vary, 'Accept');
    assert.equal((res.json() as { name: string }).name, 'Versionary reference service');
  }
  await t.close();
});
