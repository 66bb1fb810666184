import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../support/test-app.ts';

interface Target {
  href: string;
  type?: string;
  title?: string;
}
type Context = { anchor: string } & Record<string, string | Target[]>;

/**
 * RFC 9727 section 4 with RFC 9264 section 4.2: a JSON object whose only member is `linkset`, an
 * array of link context objects, each with an `anchor` and relation types whose values are arrays
 * of target objects, each with an `href`.
 */
function assertLinksetShape(body: unknown): asserts body is { linkset: Context[] } {
  assert.ok(typeof body === 'object' && body !== null && !Array.isArray(body));
  assert.deepEqual(Object.keys(body), ['linkset']);
  const { linkset } = body as { linkset: unknown };
  assert.ok(Array.isArray(linkset) && linkset.length > 0);
  for (const context of linkset as Array<Record<string, unknown>>) {
    assert.equal(typeof context.anchor, 'string');
    for (const [relation, targets] of Object.entries(context)) {
      if (relation === 'anchor') continue;
      assert.match(relation, /^[a-z][a-z0-9.-]*$/, 'a registered relation type');
      assert.ok(Array.isArray(targets) && targets.length > 0, `${relation} holds an array of targets`);
      for (const target of targets as Array<Record<string, unknown>>) {
        assert.equal(typeof target.href, 'string');
        for (const [key, value] of Object.entries(target)) assert.equal(typeof value, 'string', `${relation}.${key}`);
      }
    }
  }
}

test('/.well-known/api-catalog is an RFC 9727 linkset naming every version, each link resolving', async () => {
  const t = await createTestApp({ anonymous: true });
  const res = await t.app.inject({ url: '/.well-known/api-catalog' });
  assert.equal(res.statusCode, 200);
  assert.equal(
    res.headers['content-type'],
    'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  );
  const body = res.json() as unknown;
  assertLinksetShape(body);
  const [index, ...versions] = body.linkset;
  assert.equal(index!.anchor, '/.well-known/api-catalog');
  assert.deepEqual(
    (index!.item as Target[]).map((i) => i.href),
    ['/api/v1', '/api/v2'],
  );
  assert.deepEqual(
    versions.map((v) => v.anchor),
    ['/api/v1', '/api/v2'],
  );
  for (const v of versions) {
    const one = (relation: string) => (v[relation] as Target[])[0]!;
    const desc = await t.app.inject({ url: one('service-desc').href });
    assert.equal(desc.statusCode, 200);
    assert.equal((desc.json() as { openapi: string }).openapi, '3.1.0');
    const doc = await t.app.inject({ url: one('service-doc').href });
    assert.equal(doc.statusCode, 200);
    assert.match(String(doc.headers['content-type']), /^text\/html/);
    assert.equal((await t.app.inject({ url: one('status').href })).statusCode, 200);
  }
  const [v1, v2] = versions;
  assert.equal((v1!.deprecation as Target[])[0]!.href, '/api/versions/v1/migration-guide');
  assert.equal((await t.app.inject({ url: '/api/versions/v1/migration-guide' })).statusCode, 200);
  assert.ok(v1!.sunset, 'a deprecated version links its sunset information');
  assert.equal(v2!.deprecation, undefined, 'a current version has no deprecation link');
  assert.match((v1!.status as Target[])[0]!.title!, /deprecated/);
  await t.close();
});

test('HEAD on the catalog answers with a Link of relation api-catalog and no body', async () => {
  const t = await createTestApp({ anonymous: true });
  const res = await t.app.inject({ method: 'HEAD', url: '/.well-known/api-catalog' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '');
  assert.match(String(res.headers.link), /<\/\.well-known\/api-catalog>; rel="api-catalog"/);
  await t.close();
});
