import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DAY_MS } from '../../src/core/lifecycle/index.ts';
import { createApiBundle } from '../../src/reference/api/index.ts';
import { publishedVersions } from '../../src/reference/api/versions/index.ts';
import { assertProblem } from '../support/assertions.ts';
import { elementsOfV2 } from '../support/element-deprecations.ts';
import { adminHeaders, createTestApp, testEpoch } from '../support/test-app.ts';

const pages = ['/docs', '/docs/v1', '/docs/v2', '/docs/changelog'];
// The default lifecycle: v1 deprecated at first start (the test epoch) with six months' notice.
const v1Sunset = testEpoch + 180 * DAY_MS;

test("every page is HTML with a strict CSP and loads only the service's own assets", async () => {
  const t = await createTestApp({ anonymous: true });
  for (const url of pages) {
    const res = await t.app.inject({ url });
    assert.equal(res.statusCode, 200, url);
    assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/, 'no inline script');
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.ok(res.body.startsWith('<!doctype html><html lang="en">'));
    assert.match(res.body, /<meta name="viewport" content="width=device-width, initial-scale=1"\/>/);
    for (const [, src] of res.body.matchAll(/(?:src|href)="([^"]*)"/g))
      assert.ok(!/^(https?:)?\/\//.test(src!), `${url} links only the service: ${src}`);
    for (const [, asset] of res.body.matchAll(/(?:<script src|<link rel="stylesheet" href)="([^"]*)"/g)) {
      const served = await t.app.inject({ url: asset! });
      assert.equal(served.statusCode, 200, asset);
      assert.match(String(served.headers['content-type']), /^text\/(css|javascript)/);
    }
  }
  await t.close();
});

test('v1 carries the deprecation banner with dates, days left, replacement and guide; v2 none', async () => {
  const t = await createTestApp({ anonymous: true });
  const v1 = (await t.app.inject({ url: '/docs/v1' })).body;
  assert.match(v1, /<section class="banner" id="deprecation"/);
  assert.match(v1, /v1 is deprecated/);
  assert.match(v1, /<dt>Deprecated on<\/dt><dd><time datetime="2026-01-15">/);
  assert.match(v1, /<dt>Sunset on<\/dt><dd><time datetime="2026-07-14">/);
  assert.match(v1, /data-days-left="180">180 day\(s\)/);
  assert.match(v1, /<dt>Replacement<\/dt><dd><a href="\/docs\/v2">v2<\/a>/);
  assert.match(v1, /<a href="\/api\/versions\/v1\/migration-guide">Read the migration guide from v1 to v2<\/a>/);
  assert.match(v1, /data-openapi="\/api\/v1\/openapi.json"/);
  const v2 = (await t.app.inject({ url: '/docs/v2' })).body;
  assert.doesNotMatch(v2, /id="deprecation"|banner/);
  assert.match(v2, /data-openapi="\/api\/v2\/openapi.json"/);
  // The reference marks the operations from the served document, which says they are deprecated.
  // The document's own route is the exception: it stays readable, even after removal, for migration.
  const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as {
    paths: Record<string, Record<string, { deprecated?: boolean }>>;
  };
  const resources = Object.entries(doc.paths)
    .filter(([path]) => !path.endsWith('/openapi.json'))
    .flatMap(([, ops]) => Object.values(ops));
  assert.ok(resources.length >= 5);
  assert.ok(resources.every((op) => op.deprecated === true));
  assert.notEqual(doc.paths['/api/v1/openapi.json']?.get?.deprecated, true);
  await t.close();
});

test('the banner turns urgent under 30 days, and says removed after the sunset', async () => {
  const t = await createTestApp({ anonymous: true });
  t.clock.set(v1Sunset - 10 * DAY_MS);
  const soon = (await t.app.inject({ url: '/docs/v1' })).body;
  assert.match(soon, /<section class="banner urgent" id="deprecation"/);
  assert.match(soon, /10 day\(s\)/);
  t.clock.set(v1Sunset + DAY_MS);
  const gone = (await t.app.inject({ url: '/docs/v1' })).body;
  assert.match(gone, /v1 is removed/);
  assert.match(gone, /has been removed/);
  assert.doesNotMatch(gone, /swagger-ui-bundle/, 'no reference for a removed version');
  const feed = (await t.app.inject({ url: '/changelog.json' })).json() as {
    items: Array<{ _versionary: { kind: string; version: string } }>;
  };
  assert.ok(feed.items.some((i) => i._versionary.kind === 'removed' && i._versionary.version === 'v1'));
  await t.close();
});

test('an unknown version has no docs page: a 404 problem', async () => {
  const t = await createTestApp({ anonymous: true });
  for (const url of ['/docs/v9', '/docs/%3Cscript%3E', `/docs/${'v'.repeat(3000)}`])
    assertProblem(await t.app.inject({ url }), { status: 404 });
  // An encoded control character is refused before routing, as an ambiguous path: an invalid URI, 404 by the spec.
  assertProblem(await t.app.inject({ url: '/docs/v1%00' }), { status: 404, code: 'NOT_FOUND' });
  await t.close();
});

test("an endpoint deprecated on its own shows on its version's page and in the changelog, without a version banner", async () => {
  const t = await createTestApp({ anonymous: true });
  const made = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/deprecations',
    headers: adminHeaders,
    payload: { version: 'v2', method: 'GET', path: '/users', noticeMonths: 7 },
  });
  assert.equal(made.statusCode, 201, made.body);
  const v2 = (await t.app.inject({ url: '/docs/v2' })).body;
  assert.doesNotMatch(v2, /id="deprecation"/);
  assert.match(v2, /id="deprecated-endpoints"/);
  assert.match(v2, /<code>GET \/users<\/code>: deprecated, removed on/);
  const page = (await t.app.inject({ url: '/docs/changelog' })).body;
  assert.match(page, /GET \/users deprecated in v2/);
  assert.match(page, /<code>GET \/users<\/code> in v2/, 'listed among the coming removals');
  await t.close();
});

test("a field or query parameter deprecated on its own is listed on its version's page, in the changelog and its feeds", async () => {
  const deprecatedAt = testEpoch - 10 * DAY_MS;
  const sunsetAt = Date.UTC(2026, 8, 1);
  const t = await createTestApp({ anonymous: true, elements: elementsOfV2({ deprecatedAt, sunsetAt }) });
  const v2 = (await t.app.inject({ url: '/docs/v2' })).body;
  assert.doesNotMatch(v2, /id="deprecation"/, 'v2 itself stays current');
  assert.match(v2, /<section class="banner" id="deprecated-elements"/);
  assert.match(
    v2,
    /<li data-element="User.nickname"><code>User.nickname<\/code>: deprecated, use <code>User.name<\/code> instead; refused in requests from <time datetime="2026-09-01">2026-09-01<\/time> · <a href="https:\/\/docs.example\/nickname">migration notes<\/a>/,
  );
  assert.match(v2, /<code>GET \/users\?fields<\/code>: deprecated; refused in requests from/);
  assert.doesNotMatch((await t.app.inject({ url: '/docs/v1' })).body, /deprecated-elements/, 'only its own version');
  const summary = 'User.nickname deprecated in v2: use User.name; sunset 2026-09-01.';
  assert.match((await t.app.inject({ url: '/docs/changelog' })).body, new RegExp(summary.replaceAll('.', '\\.')));
  const json = (await t.app.inject({ url: '/changelog.json' })).json() as {
    items: Array<{
      summary: string;
      date_published: string;
      external_url?: string;
      _versionary: Record<string, unknown>;
    }>;
  };
  const item = json.items.find((i) => i._versionary.element === 'User.nickname')!;
  assert.equal(item.summary, summary);
  assert.equal(item.date_published, '2026-01-05T12:00:00Z', 'dated at its deprecation');
  assert.equal(item.external_url, 'https://docs.example/nickname');
  assert.equal(item._versionary.kind, 'element_deprecated');
  assert.ok(json.items.some((i) => i._versionary.element === 'GET /users?fields'));
  assert.ok(json.items.filter((i) => !i._versionary.element).every((i) => !('element' in i._versionary)));
  assert.match(
    (await t.app.inject({ url: '/changelog.atom' })).body,
    /<title type="text">User.nickname deprecated in v2<\/title>/,
  );
  // After the sunset the field is still part of v2, so still listed; requests that send it are refused.
  t.clock.set(sunsetAt + DAY_MS);
  assert.match(
    (await t.app.inject({ url: '/docs/v2' })).body,
    /User.nickname<\/code>: deprecated, use <code>User.name<\/code> instead; refused in requests since/,
  );
  await t.close();
});

test('the Atom feed is well-formed RFC 4287 that a parser reads, with stable unique ids', async () => {
  const t = await createTestApp({ anonymous: true, now: Date.UTC(2026, 3, 1) });
  const res = await t.app.inject({ url: '/changelog.atom' });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^application\/atom\+xml/);
  assert.equal(XMLValidator.validate(res.body), true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    isArray: (name) => ['entry', 'link', 'category'].includes(name),
  }).parse(res.body);
  const feed = parsed.feed;
  assert.equal(feed['@xmlns'], 'http://www.w3.org/2005/Atom');
  const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
  assert.match(feed.id, /^tag:/);
  assert.ok(feed.title);
  assert.match(feed.updated, rfc3339);
  assert.ok(feed.author.name, 'a feed-level author, since entries carry none');
  assert.ok(feed.link.some((l: Record<string, string>) => l['@rel'] === 'self' && l['@href'] === '/changelog.atom'));
  assert.ok(feed.entry.length >= 3);
  for (const entry of feed.entry) {
    assert.match(entry.id, /^tag:/);
    assert.ok(entry.title['#text']);
    assert.match(entry.updated, rfc3339);
    assert.ok(entry.link.some((l: Record<string, string>) => l['@rel'] === 'alternate'));
  }
  assert.equal(new Set(feed.entry.map((e: { id: string }) => e.id)).size, feed.entry.length);
  assert.equal(feed.updated, feed.entry[0].updated, 'the feed is as new as its newest entry');
  const v2 = feed.entry.find((e: { title: { '#text': string } }) => e.title['#text'] === 'v2 released');
  assert.match(v2.content['#text'], /`pending`/, 'a release lists its declared changes');
  const deprecation = feed.entry.find((e: { title: { '#text': string } }) => e.title['#text'] === 'v1 deprecated');
  assert.ok(
    deprecation.link.some(
      (l: Record<string, string>) => l['@rel'] === 'related' && l['@href'] === '/api/versions/v1/migration-guide',
    ),
  );
  assert.equal((await t.app.inject({ url: '/changelog.atom' })).body, res.body, 'same bytes on a second read');
  await t.close();
});

test('declared change text is shown as text everywhere: page, Atom, JSON', async () => {
  const hostile = '<script>alert(1)</script> "quoted" & \'single\' ]]>';
  const [v1, v2] = publishedVersions;
  const bundle = createApiBundle([
    v1!,
    { ...v2!, changes: (v2!.changes ?? []).map((c, i) => (i === 0 ? { ...c, description: hostile } : c)) },
  ]);
  const t = await createTestApp({ anonymous: true, bundle, now: Date.UTC(2026, 3, 1) });
  const page = (await t.app.inject({ url: '/docs/changelog' })).body;
  assert.ok(!page.includes('<script>alert(1)'), 'no live script tag');
  assert.ok(page.includes("&lt;script>alert(1)&lt;/script> &quot;quoted&quot; &amp; 'single' ]]>"));
  const atom = (await t.app.inject({ url: '/changelog.atom' })).body;
  assert.equal(XMLValidator.validate(atom), true);
  const entries = new XMLParser({ ignoreAttributes: false, isArray: (n) => n === 'entry' }).parse(atom).feed
    .entry as Array<{ content: { '#text': string } }>;
  assert.ok(
    entries.some((e) => e.content['#text'].includes(hostile)),
    'the parser reads back the exact text',
  );
  const json = (await t.app.inject({ url: '/changelog.json' })).json() as {
    items: Array<{ _versionary: { changes: string[] } }>;
  };
  assert.ok(json.items.some((i) => i._versionary.changes.includes(hostile)));
  await t.close();
});

test('a migration URL that is not http(s) or a path is never linked: refused in the config, dropped from a stored row', async () => {
  const file = {
    versions: {
      v1: {
        releasedAt: '2025-01-15T00:00:00Z',
        deprecatedAt: '2026-01-01T00:00:00Z',
        sunsetAt: '2026-08-01T00:00:00Z',
        migrationUrl: 'javascript:alert(1)',
      },
      v2: { releasedAt: '2025-06-01T00:00:00Z' },
    },
  };
  await assert.rejects(
    createTestApp({
      anonymous: true,
      env: { VERSIONARY_CONFIG: '/c.json' },
      files: { '/c.json': JSON.stringify(file) },
    }),
    /versions\.v1\.migrationUrl must be a string that is an absolute http or https URL/,
  );
  // A schedule stored before the rule was enforced still holds one: the pages drop it.
  const dir = mkdtempSync(join(tmpdir(), 'versionary-docs-'));
  const databasePath = join(dir, 'db.sqlite');
  try {
    const first = await createTestApp({ anonymous: true, databasePath });
    await first.db
      .updateTable('versionary_version_schedules')
      .set({ migration_url: 'javascript:alert(1)' })
      .where('version', '=', 'v1')
      .execute();
    await first.close();
    const t = await createTestApp({ admin: true, databasePath });
    const v1 = await t.app.inject({ url: '/api/v1/users' });
    assert.match(String(v1.headers.link), /<\/api\/versions\/v1\/migration-guide>; rel="deprecation"/);
    const shown = (await t.app.inject({ url: '/admin/v1/versions/v1' })).json() as { migrationUrl: string };
    assert.equal(shown.migrationUrl, '/api/versions/v1/migration-guide', 'the default guide stands in');
    for (const url of ['/docs/v1', '/docs/changelog', '/docs']) {
      const body = (await t.app.inject({ url })).body;
      assert.doesNotMatch(body, /javascript:/, url);
    }
    assert.match((await t.app.inject({ url: '/docs/v1' })).body, /v1 is deprecated/);
    await t.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the JSON feed is a JSON Feed 1.1 with the lifecycle facts in its extension', async () => {
  const t = await createTestApp({ anonymous: true });
  const res = await t.app.inject({ url: '/changelog.json' });
  assert.match(String(res.headers['content-type']), /^application\/feed\+json/);
  const feed = res.json() as {
    version: string;
    title: string;
    items: Array<Record<string, unknown>>;
    _versionary: { upcoming: unknown[] };
  };
  assert.equal(feed.version, 'https://jsonfeed.org/version/1.1');
  assert.ok(
    feed.items.every(
      (i) => typeof i.id === 'string' && typeof i.content_text === 'string' && typeof i.date_published === 'string',
    ),
  );
  assert.deepEqual(feed._versionary.upcoming, [
    {
      version: 'v1',
      endpoint: null,
      sunsetAt: '2026-07-14T12:00:00Z',
      replacement: 'v2',
      guideUrl: '/api/versions/v1/migration-guide',
    },
  ]);
  await t.close();
});
