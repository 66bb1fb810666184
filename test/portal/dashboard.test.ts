import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DAY_MS } from '../../src/core/lifecycle/index.ts';
import { assertProblem } from '../support/assertions.ts';
import { adminHeaders, createTestApp, testAdminKey, type TestApp } from '../support/test-app.ts';
import { addClient, call, cookieOf, csrfOf, signIn } from './dashboard-support.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

async function world(): Promise<{ t: TestApp; acme: string; globex: string }> {
  const t = await createTestApp({ anonymous: true });
  const acme = await addClient(t, {
    id: 'cl_acme',
    name: 'Acme',
    contacts: [
      { email: 'dev@acme.test', subscribed: true },
      { email: 'cto@acme.test', subscribed: false },
    ],
  });
  const globex = await addClient(t, { id: 'cl_globex', name: 'Globex', roles: ['read', 'write'] });
  await call(t, { key: acme, url: '/api/v1/users', times: 3 });
  await call(t, { key: acme, url: '/api/v2/users' });
  const user = await t.app.inject({
    method: 'POST',
    url: '/api/v2/users',
    headers: { authorization: `Bearer ${globex}` },
    payload: { name: 'Ada' },
  });
  assert.equal(user.statusCode, 201, user.body);
  await call(t, { key: globex, url: `/api/v1/users/${(user.json() as { id: number }).id}/posts`, times: 2 });
  return { t, acme, globex };
}

test('sign-in sets a signed HttpOnly SameSite=Strict cookie scoped to the portal; sign-out clears it', async () => {
  const { t, acme } = await world();
  const signInPage = await t.app.inject({ url: '/portal/sign-in' });
  assert.equal(signInPage.statusCode, 200);
  assert.match(signInPage.body, /<input id="key" name="key" type="password"/);
  const res = await t.app.inject({
    method: 'POST',
    url: '/portal/sign-in',
    payload: `key=${encodeURIComponent(acme)}`,
    headers: form,
  });
  assert.equal(res.statusCode, 303);
  const setCookie = String(res.headers['set-cookie']);
  assert.match(setCookie, /^versionary_portal=[\w-]+\.[\w-]+\.[\w-]+;/);
  for (const attribute of ['Max-Age=1800', 'Path=/portal', 'HttpOnly', 'SameSite=Strict'])
    assert.ok(setCookie.includes(attribute), `${attribute} in ${setCookie}`);
  assert.ok(!setCookie.includes('Secure'), 'not Secure over plain http');
  const cookie = cookieOf(res);
  const home = await t.app.inject({ url: '/portal', headers: { cookie } });
  assert.equal(home.statusCode, 200);
  assert.equal(home.headers['cache-control'], 'no-store');
  assert.match(home.body, /Your API usage/);
  const out = await t.app.inject({
    method: 'POST',
    url: '/portal/sign-out',
    headers: { cookie, ...form },
    payload: `_csrf=${encodeURIComponent(csrfOf(home.body))}`,
  });
  assert.equal(out.statusCode, 303);
  assert.equal(out.headers.location, '/portal/sign-in');
  assert.match(String(out.headers['set-cookie']), /versionary_portal=;.*Expires=Thu, 01 Jan 1970/);
  await t.close();
});

test('the cookie is Secure behind https (a TLS-terminating proxy says so in X-Forwarded-Proto)', async () => {
  const t = await createTestApp({ anonymous: true });
  const res = await t.app.inject({
    method: 'POST',
    url: '/portal/sign-in',
    payload: `key=${testAdminKey}`,
    headers: { ...form, 'x-forwarded-proto': 'https' },
  });
  assert.equal(res.statusCode, 303);
  assert.match(String(res.headers['set-cookie']), /; Secure/);
  await t.close();
});

test('a wrong, revoked or empty key is refused with the sign-in page again', async () => {
  const { t, acme } = await world();
  for (const payload of ['key=vk_nope.nope', 'key=', 'nothing=1', `key=${'x'.repeat(600)}`]) {
    const res = await t.app.inject({ method: 'POST', url: '/portal/sign-in', payload, headers: form });
    assert.equal(res.statusCode, 401, payload);
    assert.match(res.body, /That key is not valid/);
    assert.equal(res.headers['set-cookie'], undefined);
  }
  const cookie = await signIn(t, acme);
  const keyId = `key_${/^vk_([^.]+)\./.exec(acme)![1]}`;
  assert.equal(
    (await t.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${keyId}`, headers: adminHeaders })).statusCode,
    204,
  );
  const after = await t.app.inject({ url: '/portal', headers: { cookie } });
  assert.equal(after.statusCode, 303, "a revoked key's session ends at once");
  assert.equal(after.headers.location, '/portal/sign-in');
  await t.close();
});

test("a consumer's warnings name exactly the deprecated endpoints that client called, with counts, sunset, guide and breaking changes", async () => {
  const { t, acme, globex } = await world();
  const body = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, acme) } })).body;
  const warnings = [...body.matchAll(/data-subject="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(warnings, ['v1']);
  const endpoints = [...body.matchAll(/<tr data-endpoint="([^"]+)"><td><code>[^<]+<\/code><\/td><td>(\d+)<\/td>/g)].map(
    (m) => [m[1], Number(m[2])],
  );
  assert.deepEqual(endpoints, [['GET /users', 3]], "only what Acme called, not Globex's calls");
  assert.match(body, /Removed on 2026-07-14: 180 days left/);
  assert.match(body, /Move to <a href="\/docs\/v2">v2<\/a>/);
  assert.match(body, /<a href="\/api\/versions\/v1\/migration-guide">Read the migration guide<\/a>/);
  assert.match(body, /Breaking changes in v2 on endpoints you call \(1\)/);
  assert.match(body, /GET \/api\/users/);
  assert.doesNotMatch(
    body,
    /GET \/api\/users\/\{id\}\/posts/,
    'a breaking change on an endpoint Acme never called is left out',
  );
  const theirs = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, globex) } })).body;
  assert.deepEqual(
    [...theirs.matchAll(/<tr data-endpoint="([^"]+)">/g)].map((m) => m[1]),
    ['GET /users/{id}/posts'],
  );
  assert.match(theirs, /GET \/api\/users\/\{id\}\/posts/);
  assert.match(body, /<svg viewBox="0 0 640 240" role="img"/, 'the usage chart is server-rendered SVG');
  assert.match(body, /<td>dev@acme.test<\/td><td>subscribed<\/td>/);
  assert.match(body, /<td>cto@acme.test<\/td><td>unsubscribed<\/td>/);
  await t.close();
});

test('a consumer reads the breaking changes in plain words: no schema names, no backticks', async () => {
  const { t, acme } = await world();
  const body = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, acme) } })).body;
  const items = [...body.matchAll(/<ul class="breaking">(.*?)<\/ul>/gs)].flatMap((m) =>
    [...m[1]!.matchAll(/<li>(.*?)<\/li>/gs)].map((li) => li[1]!.replace(/<[^>]+>/g, '')),
  );
  assert.deepEqual(items, ['GET /api/users: The response body was a list (JSON array); in v2 it is an object.']);
  for (const jargon of ['`', 'UserList', 'schema ', 'Was array', '→'])
    assert.ok(!items.join('\n').includes(jargon), `no ${jargon}`);
  await t.close();
});

test('under 30 days the warning is stronger', async () => {
  const { t, acme } = await world();
  const cookie = await signIn(t, acme);
  t.clock.advance(165 * DAY_MS);
  await call(t, { key: acme, url: '/api/v1/users' });
  const body = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, acme) } })).body;
  assert.match(body, /class="warning urgent"/);
  assert.match(body, /Only 15 day\(s\) left: removed on 2026-07-14. Migrate now./);
  assert.equal(
    (await t.app.inject({ url: '/portal', headers: { cookie } })).statusCode,
    303,
    'the first sign-in expired long ago',
  );
  await t.close();
});

test('the admin sees the timeline, usage, the clients still calling ranked and a burn-down', async () => {
  const { t } = await world();
  const body = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, testAdminKey) } })).body;
  assert.match(body, /API owner dashboard/);
  assert.match(body, /id="lifecycle-timeline"/);
  assert.match(body, /id="admin-usage"/);
  const ranked = [
    ...body.matchAll(/<tr data-client="([^"]+)"><td><a href="[^"]+">([^<]+)<\/a><\/td><td>(\d+)<\/td>/g),
  ].map((m) => [m[1], m[2], Number(m[3])]);
  assert.deepEqual(
    ranked,
    [
      ['cl_acme', 'Acme', 3],
      ['cl_globex', 'Globex', 2],
    ],
    'ranked by calls, named',
  );
  assert.match(body, /class="burn-down" data-version="v1"/);
  assert.match(body, /id="burn-down-v1"/);
  // The sentence reads with its spaces, as a screen reader or a copy of the page gives it.
  const sentence = /<section class="burn-down"[^]*?<p>([^]*?)<\/p>/.exec(body)?.[1]?.replace(/<[^>]+>/g, '');
  assert.match(sentence ?? '', /^Sunset on \d{4}-\d{2}-\d{2}(; projected last call \d{4}-\d{2}-\d{2})?\.$/, sentence);
  await t.close();
});

test('deprecated fields and parameters: the owner sees each with its usage, a consumer only its own uses', async () => {
  const { t, acme } = await world();
  // Set as the lifecycle config's fieldDeprecations and parameterDeprecations parse to; the runtime reads them live.
  t.config.settings.lifecycle.elementDeprecations = [
    {
      kind: 'field',
      version: 'v2',
      element: 'UserInput.nickname',
      schema: 'UserInput',
      field: 'nickname',
      deprecatedAt: Date.UTC(2026, 0, 1),
      sunsetAt: Date.UTC(2027, 0, 1),
      replacement: 'displayName',
    },
    {
      kind: 'parameter',
      version: 'v2',
      element: 'GET /users?order',
      method: 'GET',
      path: '/users',
      parameter: 'order',
      deprecatedAt: Date.UTC(2026, 0, 1),
      sunsetAt: Date.UTC(2026, 5, 1),
    },
  ];
  // What the request path records for each use of a deprecated element.
  const at = t.clock.now();
  const use = (clientId: string, endpoint: string) => ({
    version: 'v2',
    endpoint,
    clientId,
    at,
    element: 'UserInput.nickname',
  });
  await t.storage.usage.insert([
    use('cl_acme', 'POST /users'),
    use('cl_acme', 'POST /users'),
    use('cl_acme', 'PATCH /users/{id}'),
    use('cl_globex', 'POST /users'),
  ]);

  const admin = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, testAdminKey) } })).body;
  assert.match(admin, /<h2 id="elements-heading">Deprecated fields and parameters<\/h2>/);
  const cells = (html: string, attribute: string, name: string) =>
    [
      ...(
        new RegExp(`<tr ${attribute}="${name.replace(/[?{}]/g, '\\$&')}"[^>]*>(.*?)</tr>`).exec(html)?.[1] ?? ''
      ).matchAll(/<td>(.*?)<\/td>/g),
    ].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
  assert.deepEqual(cells(admin, 'data-element', 'UserInput.nickname'), [
    'UserInput.nickname',
    'v2',
    '2027-01-01',
    'UserInput.displayName',
    '4',
    '2',
    '2026-01-15',
  ]);
  assert.deepEqual(
    cells(admin, 'data-element', 'GET /users?order'),
    ['GET /users?order', 'v2', '2026-06-01', 'none', '0', '0', 'never'],
    'an element nobody used is listed too',
  );

  const mine = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, acme) } })).body;
  assert.match(mine, /Deprecated fields and parameters you use/);
  const rows = [...mine.matchAll(/<tr data-element="([^"]+)" data-endpoint="([^"]+)">(.*?)<\/tr>/g)].map((m) => [
    m[1],
    m[2],
    [...m[3]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, '')),
  ]);
  assert.deepEqual(
    rows,
    [
      [
        'UserInput.nickname',
        'POST /users',
        ['UserInput.nickname', 'POST /users', '2', '2026-01-15', '2027-01-01', 'UserInput.displayName'],
      ],
      [
        'UserInput.nickname',
        'PATCH /users/{id}',
        ['UserInput.nickname', 'PATCH /users/{id}', '1', '2026-01-15', '2027-01-01', 'UserInput.displayName'],
      ],
    ],
    "only Acme's own uses, most called first",
  );
  assert.doesNotMatch(mine, /GET \/users\?order/, 'an element the client never used is not shown to it');
  await t.close();
});

test('hostile: a client named like markup shows as text everywhere', async () => {
  const t = await createTestApp({ anonymous: true });
  const name = '<script>alert(1)</script> "quoted" \'single\'';
  const key = await addClient(t, {
    id: 'cl_evil',
    name,
    contacts: [{ email: '"><img src=x onerror=alert(1)>@evil.test', subscribed: true }],
  });
  await call(t, { key, url: '/api/v1/users' });
  for (const cookie of [await signIn(t, key), await signIn(t, testAdminKey)]) {
    for (const url of ['/portal', '/portal/clients/cl_evil']) {
      const res = await t.app.inject({ url, headers: { cookie } });
      assert.equal(res.statusCode, 200, url);
      assert.ok(!res.body.includes('<script>alert(1)'), `${url}: no live script`);
      assert.ok(!res.body.includes('<img src=x'), `${url}: no live image`);
      if (url === '/portal/clients/cl_evil')
        assert.ok(res.body.includes("&lt;script>alert(1)&lt;/script> &quot;quoted&quot; 'single'"), 'shown as text');
    }
  }
  await t.close();
});

test('hostile: a forged, altered or expired cookie gets the sign-in page', async () => {
  const { t, acme } = await world();
  const cookie = await signIn(t, acme);
  const [name, token] = cookie.split('=') as [string, string];
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const forged = Buffer.from(JSON.stringify({ ...claims, client: 'cl_globex', role: 'admin' })).toString('base64url');
  const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${forged}.`;
  for (const value of [`${header}.${forged}.${signature}`, none, 'garbage', `${token}x`, '']) {
    const res = await t.app.inject({ url: '/portal', headers: { cookie: `${name}=${value}` } });
    assert.equal(res.statusCode, 303, value);
    assert.equal(res.headers.location, '/portal/sign-in');
  }
  t.clock.advance(30 * 60 * 1000 + 1000);
  assert.equal(
    (await t.app.inject({ url: '/portal', headers: { cookie } })).headers.location,
    '/portal/sign-in',
    'expired after 30 minutes',
  );
  await t.close();
});

test("hostile: a consumer cannot reach another client's data by changing the id", async () => {
  const { t, acme } = await world();
  const cookie = await signIn(t, acme);
  assert.equal((await t.app.inject({ url: '/portal/clients/cl_acme', headers: { cookie } })).statusCode, 200);
  for (const id of ['cl_globex', 'cl_nope', 'admin']) {
    const res = await t.app.inject({ url: `/portal/clients/${id}`, headers: { cookie } });
    assertProblem(res, { status: 404 });
    assert.doesNotMatch(res.body, /Globex/);
  }
  // Ambiguous spellings are refused before routing, as invalid URIs (the spec's 404).
  for (const id of ['..%2Fcl_globex', 'cl_acme%00']) {
    const res = await t.app.inject({ url: `/portal/clients/${id}`, headers: { cookie } });
    assertProblem(res, { status: 404, code: 'NOT_FOUND' });
    assert.doesNotMatch(res.body, /Globex/);
  }
  const own = (await t.app.inject({ url: '/portal?client=cl_globex&clientId=cl_globex', headers: { cookie } })).body;
  assert.doesNotMatch(own, /Globex/, 'query parameters choose nothing');
  // Globex's calls (to /posts) are not shown; the site's name in the header ("users and posts API") is no client's data.
  assert.doesNotMatch(own.slice(own.indexOf('<main')), /posts/, 'query parameters choose nothing');
  await t.close();
});

test("hostile: a POST without its CSRF token, with another session's, or from another origin is refused", async () => {
  const { t, acme, globex } = await world();
  const cookie = await signIn(t, acme);
  const other = csrfOf((await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, globex) } })).body);
  for (const payload of ['', '_csrf=', `_csrf=${encodeURIComponent(other)}`, '_csrf=x']) {
    const res = await t.app.inject({ method: 'POST', url: '/portal/sign-out', headers: { cookie, ...form }, payload });
    assertProblem(res, { status: 403, code: 'FORBIDDEN' });
  }
  assert.equal((await t.app.inject({ url: '/portal', headers: { cookie } })).statusCode, 200, 'still signed in');
  const cross = await t.app.inject({
    method: 'POST',
    url: '/portal/sign-in',
    payload: `key=${encodeURIComponent(acme)}`,
    headers: { ...form, origin: 'https://evil.test' },
  });
  assertProblem(cross, { status: 403 });
  await t.close();
});

test("a consumer's personal feed holds only what that client calls, and dies with its key", async () => {
  const { t, acme } = await world();
  const made = await t.app.inject({
    method: 'POST',
    url: '/admin/v1/deprecations',
    headers: adminHeaders,
    payload: { version: 'v2', method: 'GET', path: '/users/{id}', noticeMonths: 7 },
  });
  assert.equal(made.statusCode, 201, made.body);
  const page = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, acme) } })).body;
  const url = /<a id="personal-feed" href="([^"]+)"/.exec(page)![1]!;
  // htm drops a line break between text and an element: the words must keep their space.
  assert.match(page, /you call: <a id="personal-feed"/);
  assert.match(page, /a consumer · <button/);
  const titles = async (feedUrl: string) => {
    const res = await t.app.inject({ url: feedUrl });
    assert.equal(res.statusCode, 200, res.body.slice(0, 200));
    assert.equal(XMLValidator.validate(res.body), true);
    const feed = new XMLParser({ ignoreAttributes: false, isArray: (n) => n === 'entry' }).parse(res.body).feed as {
      entry?: Array<{ title: { '#text': string } }>;
    };
    return (feed.entry ?? []).map((e) => e.title['#text']);
  };
  assert.ok((await titles('/changelog.atom')).includes('GET /users/{id} deprecated in v2'), 'the public feed has it');
  assert.deepEqual(await titles(url), ['v1 deprecated', 'v1 released'], 'Acme never called GET /users/{id} in v2');
  const writer = await addClient(t, { id: 'cl_writer', name: 'Writer', roles: ['read', 'write'] });
  const own = await t.app.inject({
    method: 'POST',
    url: '/api/v2/users',
    headers: { authorization: `Bearer ${writer}` },
    payload: { name: 'Cy' },
  });
  await call(t, { key: writer, url: `/api/v2/users/${(own.json() as { id: number }).id}` });
  const writerPage = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, writer) } })).body;
  const writerFeed = /<a id="personal-feed" href="([^"]+)"/.exec(writerPage)![1]!;
  assert.deepEqual(
    await titles(writerFeed),
    ['GET /users/{id} deprecated in v2'],
    'a client that called it sees it, and nothing about v1',
  );
  for (const bad of [`${url}x`, url.replace(/\.[^.]+$/, '.AAAA'), '/portal/feed/key_nope.abc', '/portal/feed/x'])
    assertProblem(await t.app.inject({ url: bad }), { status: 404 });
  const keyId = `key_${/^vk_([^.]+)\./.exec(acme)![1]}`;
  assert.equal(
    (await t.app.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${keyId}`, headers: adminHeaders })).statusCode,
    204,
  );
  assertProblem(await t.app.inject({ url }), { status: 404 });
  await t.close();
});

test("a consumer sees the brownouts to come and the notices sent to it; the admin sees each client's last notice", async () => {
  const { t, acme } = await world();
  const now = t.clock.now();
  await t.storage.notices.saveBrownout({
    id: 'b1',
    version: 'v1',
    startsAt: now + 10 * DAY_MS,
    endsAt: now + 10 * DAY_MS + 3_600_000,
    createdAt: now,
  });
  await t.storage.notices.enqueue([
    {
      clientId: 'cl_acme',
      subject: 'v1',
      kind: 'deprecated',
      step: 'deprecated',
      sunsetAt: now + 180 * DAY_MS,
      channel: 'email',
      recipient: 'dev@acme.test',
      payload: '{}',
      status: 'pending',
      createdAt: now,
    },
  ]);
  const body = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, acme) } })).body;
  assert.match(body, /Brownouts to come/);
  assert.match(body, /<table id="notices">/);
  assert.match(body, /<td>deprecated<\/td><td>v1<\/td><td>email: dev@acme.test<\/td><td>pending/);
  const admin = (await t.app.inject({ url: '/portal', headers: { cookie: await signIn(t, testAdminKey) } })).body;
  assert.match(admin, /<td class="notice-status">deprecated, pending /);
  assert.match(admin, /<td class="notice-status">none yet<\/td>/, 'Globex was sent nothing');
  await t.close();
});

test("the client page shows the client's minimum version, to the owner and to the client", async () => {
  const { t, acme } = await world();
  const set = await t.app.inject({
    method: 'PATCH',
    url: '/admin/v1/clients/cl_acme',
    headers: { ...adminHeaders, 'content-type': 'application/json' },
    payload: { minimumVersion: 'v2' },
  });
  assert.equal(set.statusCode, 200, set.body);
  for (const cookie of [await signIn(t, acme), await signIn(t, testAdminKey)]) {
    const page = (await t.app.inject({ url: '/portal/clients/cl_acme', headers: { cookie } })).body;
    assert.match(page, /id="minimum-version"[^]*Minimum version <strong>v2<\/strong>/);
  }
  const globex = await t.app.inject({
    url: '/portal/clients/cl_globex',
    headers: { cookie: await signIn(t, testAdminKey) },
  });
  assert.doesNotMatch(globex.body, /minimum-version/);
  await t.close();
});
