import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, testEpoch } from '../support/test-app.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const config = (file: unknown) => ({
  env: { VERSIONARY_CONFIG: '/c.json' },
  files: { '/c.json': JSON.stringify(file) },
});

test('by default v1 is deprecated with six months of notice; v2 carries no deprecation headers', async () => {
  const t = await createTestApp();
  const v1 = await t.app.inject({ url: '/api/v1/users' });
  assert.equal(v1.statusCode, 200);
  assert.equal(v1.headers.deprecation, iso(testEpoch));
  assert.equal(v1.headers.sunset, iso(testEpoch + 180 * day));
  assert.match(String(v1.headers.link), /<\/api\/versions\/v1\/migration-guide>; rel="deprecation"/);
  assert.match(String(v1.headers.link), /rel="successor-version"/);
  assert.equal(v1.headers.warning, undefined);
  const v2 = await t.app.inject({ url: '/api/v2/users' });
  for (const name of ['deprecation', 'sunset', 'link', 'warning']) assert.equal(v2.headers[name], undefined, name);
  assert.equal(v2.headers['api-supported-versions'], 'v2');
  assert.equal(v2.headers['api-deprecated-versions'], 'v1');
  await t.close();
});

test('Warning 299 appears only when fewer than 30 days remain, stating the days left', async () => {
  const deprecatedAt = testEpoch - 170 * day;
  const t = await createTestApp(
    config({
      versions: {
        v1: {
          releasedAt: '2024-01-01T00:00:00Z',
          deprecatedAt: iso(deprecatedAt),
          sunsetAt: iso(testEpoch + 31 * day),
          replacement: 'v2',
        },
        v2: { releasedAt: '2025-06-01T00:00:00Z' },
      },
    }),
  );
  const earlier = await t.app.inject({ url: '/api/v1/users' });
  assert.equal(earlier.headers.warning, undefined, '31 days left: no Warning');
  t.clock.advance(11 * day);
  const res = await t.app.inject({ url: '/api/v1/users' });
  assert.match(String(res.headers.warning), /^299 - ".*20 days.*migrate.*"$/i);
  await t.close();
});

test('headerStyle rfc uses @epoch-seconds, an IMF-fixdate and a rel="sunset" link', async () => {
  const sunsetAt = Date.UTC(2026, 11, 1);
  const t = await createTestApp(
    config({
      headerStyle: 'rfc',
      versions: {
        v1: { releasedAt: '2024-01-01T00:00:00Z', deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: iso(sunsetAt) },
        v2: { releasedAt: '2025-06-01T00:00:00Z' },
      },
    }),
  );
  const res = await t.app.inject({ url: '/api/v1/users/1' });
  assert.equal(res.headers.deprecation, `@${Date.UTC(2026, 0, 1) / 1000}`);
  assert.equal(res.headers.sunset, 'Tue, 01 Dec 2026 00:00:00 GMT');
  assert.match(String(res.headers.link), /rel="sunset"/);
  assert.match(String(res.headers.link), /rel="deprecation"/);
  await t.close();
});

test('after the sunset every request to the version answers 410 naming the replacement and the guide', async () => {
  const t = await createTestApp();
  t.clock.set(testEpoch + 180 * day + 1);
  const res = await t.app.inject({ url: '/api/v1/users' });
  assert.equal(res.statusCode, 410);
  assert.match(String(res.headers['content-type']), /application\/problem\+json/);
  const body = res.json();
  assert.equal(body.code, 'VERSION_REMOVED');
  assert.equal(body.replacement, 'v2');
  assert.equal(body.migrationGuide, '/api/versions/v1/migration-guide');
  const post = await t.app.inject({ method: 'POST', url: '/api/v1/users', payload: { name: 'x' } });
  assert.equal(post.statusCode, 410);
  assert.equal(await t.storage.users.count(), 0, 'nothing written after sunset');
  assert.equal((await t.app.inject({ url: '/api/v2/users' })).statusCode, 200);
  await t.close();
});

test('removedStatus 404 answers 404 after the sunset, and a removed version without code still answers', async () => {
  const t = await createTestApp(
    config({
      removedStatus: 404,
      versions: {
        v0: {
          releasedAt: '2023-01-01T00:00:00Z',
          deprecatedAt: '2024-01-01T00:00:00Z',
          sunsetAt: '2024-12-01T00:00:00Z',
          removed: true,
          replacement: 'v2',
        },
        v1: { releasedAt: '2024-01-01T00:00:00Z' },
        v2: { releasedAt: '2025-06-01T00:00:00Z' },
      },
    }),
  );
  const res = await t.app.inject({ url: '/api/v0/users' });
  assert.equal(res.statusCode, 404);
  assert.equal(res.json().replacement, 'v2');
  assert.equal(
    (await t.app.inject({ url: '/api/v1/users' })).headers.deprecation,
    undefined,
    'v1 is current in this config',
  );
  await t.close();
});

test('a deprecated endpoint carries the headers while the rest of its version stays clean', async () => {
  const t = await createTestApp(
    config({
      versions: { v1: { releasedAt: '2024-01-01T00:00:00Z' }, v2: { releasedAt: '2025-06-01T00:00:00Z' } },
      endpointDeprecations: [
        {
          version: 'v2',
          method: 'GET',
          path: '/users/{id}/posts',
          deprecatedAt: iso(testEpoch),
          sunsetAt: iso(testEpoch + 200 * day),
        },
      ],
    }),
  );
  await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 'a' } });
  const posts = await t.app.inject({ url: '/api/v2/users/1/posts' });
  assert.equal(posts.statusCode, 200);
  assert.equal(posts.headers.sunset, iso(testEpoch + 200 * day));
  const users = await t.app.inject({ url: '/api/v2/users' });
  assert.equal(users.headers.sunset, undefined);
  assert.equal(users.headers.deprecation, undefined);
  t.clock.set(testEpoch + 200 * day + 1);
  assert.equal((await t.app.inject({ url: '/api/v2/users/1/posts' })).statusCode, 410);
  assert.equal((await t.app.inject({ url: '/api/v2/users/1' })).statusCode, 200);
  await t.close();
});

test('the migration guide is served at the Link rel="deprecation" URL as HTML, Markdown or JSON', async () => {
  const t = await createTestApp();
  const link = String((await t.app.inject({ url: '/api/v1/users' })).headers.link);
  const url = /<([^>]+)>; rel="deprecation"/.exec(link)?.[1];
  assert.equal(url, '/api/versions/v1/migration-guide');
  const html = await t.app.inject({
    url: url!,
    headers: { accept: 'text/html,application/xhtml+xml', authorization: '' },
  });
  assert.equal(html.statusCode, 200);
  assert.match(String(html.headers['content-type']), /^text\/html/);
  assert.match(html.body, /<!doctype html>/i);
  const md = await t.app.inject({ url: url!, headers: { accept: 'text/markdown' } });
  assert.match(String(md.headers['content-type']), /^text\/markdown/);
  assert.match(md.body, /^# Migrating from v1 to v2/m);
  assert.match(md.body, /email/);
  const json = await t.app.inject({ url: url!, headers: { accept: 'application/json' } });
  const guide = json.json();
  assert.equal(guide.from, 'v1');
  assert.ok(guide.breaking.length > 0);
  assert.equal(
    (await t.app.inject({ url: '/api/versions/v2/migration-guide' })).statusCode,
    404,
    'v2 is current: no guide',
  );
  await t.close();
});

test('after the sunset OPTIONS and unsupported methods answer 410 too; the documents stay readable for migration', async () => {
  const t = await createTestApp();
  t.clock.set(testEpoch + 180 * day + 1);
  assert.equal((await t.app.inject({ method: 'OPTIONS', url: '/api/v1/users' })).statusCode, 410);
  assert.equal((await t.app.inject({ method: 'PATCH', url: '/api/v1/users' })).statusCode, 410);
  assert.equal((await t.app.inject({ method: 'HEAD', url: '/api/v1/users' })).statusCode, 410);
  assert.equal((await t.app.inject({ url: '/api/v1/openapi.json' })).statusCode, 200);
  assert.equal((await t.app.inject({ method: 'OPTIONS', url: '/api/v2/users' })).statusCode, 204);
  await t.close();
});

test('a version flagged removed refuses even an endpoint with its own, later-ending deprecation', async () => {
  const t = await createTestApp(
    config({
      versions: {
        v1: {
          releasedAt: '2024-01-01T00:00:00Z',
          deprecatedAt: '2025-01-01T00:00:00Z',
          sunsetAt: '2027-06-01T00:00:00Z',
          removed: true,
        },
        v2: { releasedAt: '2025-06-01T00:00:00Z' },
      },
      endpointDeprecations: [
        {
          version: 'v1',
          method: 'GET',
          path: '/users',
          deprecatedAt: '2025-01-01T00:00:00Z',
          sunsetAt: '2026-09-01T00:00:00Z',
        },
      ],
    }),
  );
  assert.equal((await t.app.inject({ url: '/api/v1/users' })).statusCode, 410);
  assert.equal((await t.app.inject({ url: '/api/v1/users/1' })).statusCode, 410);
  await t.close();
});

test('a migration URL that cannot go in a Link header is refused where it is given', async () => {
  await assert.rejects(
    createTestApp(
      config({
        versions: {
          v1: { releasedAt: '2024-01-01T00:00:00Z', migrationUrl: 'https://x.example/a b' },
          v2: { releasedAt: '2025-06-01T00:00:00Z' },
        },
      }),
    ),
    /migrationUrl/,
  );
  const t = await createTestApp({ admin: true });
  const put = await t.app.inject({
    method: 'PUT',
    url: '/admin/v1/versions/v1/deprecation',
    payload: { noticeMonths: 9, migrationUrl: 'https://x.example/a b' },
  });
  assert.equal(put.statusCode, 400);
  const post = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/deprecations',
    payload: { version: 'v2', method: 'GET', path: '/users/{id}', migrationUrl: 'not a url' },
  });
  assert.equal(post.statusCode, 400);
  assert.equal((await t.app.inject({ url: '/api/v1/users' })).statusCode, 200);
  assert.equal((await t.app.inject({ url: '/api/v2/users/1' })).statusCode, 404);
  assert.equal((await t.app.inject({ url: '/admin/v1/versions/v1/calls?clientId=a&clientId=b' })).statusCode, 400);
  await t.close();
});
