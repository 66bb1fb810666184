import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestService } from '../support/started-service.ts';
import { adminHeaders, consumerHeaders, createTestApp, testEpoch } from '../support/test-app.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const deprecatedAt = testEpoch;
const sunsetAt = testEpoch + 200 * day;

// The reference service's own example of the spec's "safe deprecation of a field": v2 added
// `displayName`, and the config deprecates `nickname`, named once (in the user, its detail, its
// input and its patch). `limit` and `cursor` ride in the service's next-page links and cannot be
// deprecated within v2, so the parameter here is the single user's `fields`.
const config = {
  versions: { v1: { releasedAt: '2025-01-15T00:00:00Z' }, v2: { releasedAt: '2026-03-02T00:00:00Z' } },
  fieldDeprecations: [
    {
      version: 'v2',
      resource: 'User',
      field: 'nickname',
      deprecatedAt: iso(deprecatedAt),
      sunsetAt: iso(sunsetAt),
      replacement: 'displayName',
    },
  ],
  parameterDeprecations: [
    {
      version: 'v2',
      method: 'GET',
      path: '/users/{id}',
      parameter: 'fields',
      deprecatedAt: iso(deprecatedAt),
      sunsetAt: iso(sunsetAt + 100 * day),
    },
  ],
};

const start = () =>
  createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(config) } });
const post = (t: Awaited<ReturnType<typeof start>>, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/v2/users', headers: consumerHeaders, payload });

describe('a deprecated field, end to end on the reference service', () => {
  it('is signalled only to the requests that send or select it, and counted per client', async () => {
    const t = await start();
    const sent = await post(t, { name: 'Ada', nickname: 'ada' });
    assert.equal(sent.statusCode, 201, sent.body);
    assert.equal(sent.headers.deprecation, iso(deprecatedAt));
    assert.equal(sent.headers.sunset, iso(sunsetAt));
    assert.match(String(sent.headers.link), /rel="deprecation"; title="User\.nickname"/);
    assert.equal(sent.json().displayName, 'ada', 'the replacement carries the same value');

    // The spec: "A single endpoint or feature may be deprecated while the rest of the version stays
    // active", and "responses of a current version carry none of" the deprecation headers: a v2
    // request that uses no deprecated element gets none.
    const clean = await post(t, { name: 'Grace', displayName: 'grace' });
    assert.equal(clean.statusCode, 201, clean.body);
    for (const name of ['deprecation', 'sunset', 'link', 'warning'])
      assert.equal(clean.headers[name], undefined, `${name} on a request that uses no deprecated element`);

    const selected = await t.app.inject({ url: '/api/v2/users?fields=id,nickname', headers: consumerHeaders });
    assert.equal(selected.statusCode, 200, selected.body);
    assert.match(String(selected.headers.link), /title="User\.nickname"/);
    const other = await t.app.inject({ url: '/api/v2/users?fields=id,displayName', headers: consumerHeaders });
    assert.equal(other.headers.deprecation, undefined);

    // A parameter too, and both elements in one request: every Link listed, the earliest dates.
    const both = await t.app.inject({
      url: `/api/v2/users/${sent.json().id}?fields=nickname`,
      headers: consumerHeaders,
    });
    const links = String(both.headers.link);
    assert.match(links, /title="User\.nickname"/);
    assert.match(links, /title="GET \/users\/\{id\}\?fields"/);
    assert.equal(both.headers.sunset, iso(sunsetAt), 'the earliest sunset wins');

    // v1 is deprecated (the config leaves it undated: none here) — the elements are v2's alone.
    const v1 = await t.app.inject({ url: '/api/v1/users?fields=id', headers: consumerHeaders });
    assert.doesNotMatch(String(v1.headers.link ?? ''), /title=/);

    const document = (await t.app.inject({ url: '/api/v2/openapi.json' })).json();
    const property = document.components.schemas.User.properties.nickname;
    assert.equal(property.deprecated, true);
    assert.equal(property['x-sunset'], iso(sunsetAt));
    assert.match(property.description, /displayName/);

    await (t.app as unknown as { flushUsage(): Promise<void> }).flushUsage();
    const listing = await t.app.inject({ url: '/admin/v1/deprecations', headers: adminHeaders });
    assert.equal(listing.statusCode, 200, listing.body);
    const field = listing.json().data.find((i: { name: string }) => i.name === 'User.nickname');
    assert.ok(field, listing.body);
    assert.equal(field.kind, 'field');
    assert.equal(field.usage.calls, 3, 'sent once, selected twice');
    assert.equal(field.usage.clients, 1);

    const changelog = await t.app.inject({ url: '/changelog.json' });
    assert.match(changelog.body, /User\.nickname/);
    await t.close();
  });

  it('after its sunset, a request that sends it is refused with a 400 naming the replacement; the rest still answers', async () => {
    const t = await start();
    t.clock.set(sunsetAt + day);
    const refused = await post(t, { name: 'Ada', nickname: 'ada' });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.equal(refused.json().code, 'ELEMENT_REMOVED');
    assert.match(refused.json().detail, /User\.nickname/);
    assert.match(refused.json().detail, /User\.displayName/);
    const selected = await t.app.inject({ url: '/api/v2/users?fields=nickname', headers: consumerHeaders });
    assert.equal(selected.statusCode, 400, selected.body);
    const fine = await post(t, { name: 'Ada', displayName: 'ada' });
    assert.equal(fine.statusCode, 201, fine.body);
    // The spec: "Safe deprecation of a field: add the new field, document the old one as deprecated,
    // and remove it in the next major version." v2's responses still carry it; only its use is refused.
    assert.equal(fine.json().nickname, 'ada');
    await t.close();
  });

  it('refuses to start on an element that the version does not have, naming it', async () => {
    const bad = {
      fieldDeprecations: [
        { version: 'v2', schema: 'User', field: 'nick', deprecatedAt: iso(deprecatedAt), sunsetAt: iso(sunsetAt) },
        { version: 'v1', schema: 'User', field: 'nickname', deprecatedAt: iso(deprecatedAt), sunsetAt: iso(sunsetAt) },
      ],
      parameterDeprecations: [
        {
          version: 'v2',
          method: 'GET',
          path: '/users',
          parameter: 'order',
          deprecatedAt: iso(deprecatedAt),
          sunsetAt: iso(sunsetAt),
        },
      ],
    };
    await assert.rejects(
      createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(bad) } }),
      (error: Error & { errors?: Array<{ detail: string }> }) => {
        const text = error.message + JSON.stringify(error.errors ?? []);
        assert.match(text, /no field "nick"/);
        assert.match(text, /v1's User has no field "nickname"/);
        assert.match(text, /no query parameter "order"/);
        return true;
      },
    );
  });

  it('through startService, as `node dist/server.js` composes it: the headers and the count', async () => {
    const now = Date.now();
    const service = await startTestService({
      file: {
        fieldDeprecations: [
          {
            version: 'v2',
            schema: ['User', 'UserInput', 'UserPatch'],
            field: 'nickname',
            deprecatedAt: iso(now - day),
            sunsetAt: iso(now + 200 * day),
            replacement: 'displayName',
          },
        ],
      },
    });
    try {
      const admin = { authorization: adminHeaders.authorization, 'content-type': 'application/json' };
      const sent = await fetch(`${service.base}/api/v2/users`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Ada', nickname: 'ada' }),
      });
      assert.equal(sent.status, 201, await sent.text());
      assert.equal(sent.headers.get('sunset'), iso(now + 200 * day));
      assert.match(sent.headers.get('link') ?? '', /title="User\.nickname"/);
      const clean = await fetch(`${service.base}/api/v2/users`, { headers: admin });
      assert.equal(clean.headers.get('deprecation'), null);
      // The usage buffer is written in batches: wait for the count, at most 10 s.
      let calls = 0;
      for (let i = 0; i < 40 && calls === 0; i++) {
        await new Promise((r) => setTimeout(r, 250));
        const listing = (await (await fetch(`${service.base}/admin/v1/deprecations`, { headers: admin })).json()) as {
          data: Array<{ name: string; usage: { calls: number } }>;
        };
        calls = listing.data.find((d) => d.name === 'User.nickname')?.usage.calls ?? 0;
      }
      assert.equal(calls, 1);
    } finally {
      await service.stop();
    }
  });
});

/**
 * The older `schema` form, one entry per v2 schema carrying `nickname` with the same dates (the
 * form that still works): its uses were signalled, but each entry was an element of its own, so
 * `User.nickname` showed none of the calls that reached `UserInput` or `UserPatch`. Entries that
 * deprecate one field of one version on one timeline are one deprecation, counted as `resource`'s.
 */
describe('the schema form counts the calls the resource form counts', () => {
  const countedFor = async (form: 'schema' | 'resource'): Promise<Record<string, number>> => {
    const now = Date.now();
    const dates = { deprecatedAt: iso(now - day), sunsetAt: iso(now + 200 * day) };
    const schemas = ['User', 'UserDetail', 'UserInput', 'UserPatch', 'UserPartial', 'UserDetailPartial'];
    const fieldDeprecations =
      form === 'resource'
        ? [{ version: 'v2', resource: 'User', field: 'nickname', ...dates }]
        : schemas.map((schema) => ({ version: 'v2', schema, field: 'nickname', ...dates }));
    const service = await startTestService({ file: { fieldDeprecations } });
    try {
      const admin = { authorization: adminHeaders.authorization, 'content-type': 'application/json' };
      const created = await fetch(`${service.base}/api/v2/users`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Ada', nickname: 'ada' }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      assert.match(created.headers.get('link') ?? '', /title="User\.nickname"/);
      const { id } = (await created.json()) as { id: number };
      const patched = await fetch(`${service.base}/api/v2/users/${id}`, {
        method: 'PATCH',
        headers: { ...admin, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ nickname: 'ad' }),
      });
      assert.ok(patched.headers.get('deprecation'), await patched.text());
      const selected = await fetch(`${service.base}/api/v2/users?fields=nickname`, { headers: admin });
      assert.ok(selected.headers.get('deprecation'));
      // The usage buffer is written in batches: wait for the three calls, at most 10 s.
      let counted: Record<string, number> = {};
      for (let i = 0; i < 40 && (counted['User.nickname'] ?? 0) < 3; i++) {
        await new Promise((r) => setTimeout(r, 250));
        const listing = (await (await fetch(`${service.base}/admin/v1/deprecations`, { headers: admin })).json()) as {
          data: Array<{ name: string; usage?: { calls: number } }>;
        };
        counted = Object.fromEntries(
          listing.data.filter((d) => d.name.endsWith('.nickname')).map((d) => [d.name, d.usage?.calls ?? 0]),
        );
      }
      return counted;
    } finally {
      await service.stop();
    }
  };

  it('lists one User.nickname with every call, in both forms', async () => {
    assert.deepEqual(await countedFor('resource'), { 'User.nickname': 3 });
    assert.deepEqual(await countedFor('schema'), { 'User.nickname': 3 });
  });
});
