import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminHeaders, consumerHeaders, createTestApp, testConsumerId, testEpoch } from '../support/test-app.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const deprecatedAt = testEpoch;
const sunsetAt = testEpoch + 200 * day;

// The reference service's own example of the spec's "safe deprecation of a field": v2 added
// `displayName`, and the config deprecates `nickname` (in the user, its input and its patch).
const config = {
  versions: { v1: { releasedAt: '2025-01-15T00:00:00Z' }, v2: { releasedAt: '2026-03-02T00:00:00Z' } },
  fieldDeprecations: [
    {
      version: 'v2',
      schema: ['User', 'UserInput', 'UserPatch'],
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
      path: '/users',
      parameter: 'cursor',
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
    const both = await t.app.inject({ url: '/api/v2/users?fields=nickname&cursor=abc', headers: consumerHeaders });
    const links = String(both.headers.link);
    assert.match(links, /title="User\.nickname"/);
    assert.match(links, /title="GET \/users\?cursor"/);
    assert.equal(both.headers.sunset, iso(sunsetAt), 'the earliest sunset wins');

    // v1 is deprecated (the config leaves it undated: none here) — the elements are v2's alone.
    const v1 = await t.app.inject({ url: '/api/v1/users?fields=id', headers: consumerHeaders });
    assert.doesNotMatch(String(v1.headers.link ?? ''), /title=/);

    const document = (await t.app.inject({ url: '/api/v2/openapi.json' })).json();
    const property = document.components.schemas.User.properties.nickname;
    assert.equal(property.deprecated, true);
    assert.equal(property['x-sunset'], iso(sunsetAt));
    assert.match(property.description, /displayName/);

    await t.app.inject({ method: 'POST', url: '/admin/v1/usage/flush', headers: adminHeaders });
    await (t.app as unknown as { flushUsage(): Promise<void> }).flushUsage();
    const listing = await t.app.inject({ url: '/admin/v1/deprecations', headers: adminHeaders });
    assert.equal(listing.statusCode, 200, listing.body);
    const field = listing.json().data.find((i: { name: string }) => i.name === 'User.nickname');
    assert.ok(field, listing.body);
    assert.equal(field.kind, 'field');
    assert.equal(field.usage.calls, 3, 'sent once, selected twice');
    assert.equal(field.usage.clients, 1);

    const consumer = await t.app.inject({ url: '/changelog.json' });
    assert.match(consumer.body, /User\.nickname/);
    assert.ok(testConsumerId);
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
    // The spec removes a field only in the next major version: v2's responses still carry it.
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
});
