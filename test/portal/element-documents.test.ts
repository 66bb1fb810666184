// A field and a query parameter deprecated within a version, as the service documents them: its
// served OpenAPI document (before and after the sunset) and the migration guide of its version.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElementDeprecation } from '../../src/core/lifecycle/index.ts';
import { elementsOfV2 } from '../support/element-deprecations.ts';
import { createTestApp, testEpoch, type TestApp } from '../support/test-app.ts';

const sunsetAt = Date.UTC(2026, 8, 1);
const dates = { deprecatedAt: testEpoch, sunsetAt };
type Doc = {
  paths: Record<string, Record<string, { parameters: Array<{ name?: string } & Record<string, unknown>> }>>;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
};
const document = async (t: TestApp, version: string) => {
  const res = await t.app.inject({ url: `/api/${version}/openapi.json` });
  assert.equal(res.statusCode, 200, res.body.slice(0, 200));
  return res.json() as Doc;
};
const query = (doc: Doc, name: string) => doc.paths['/api/v2/users']!.get!.parameters.find((p) => p.name === name);

test('the served document marks a deprecated field and parameter, and leaves the parameter out after its sunset', async () => {
  const t = await createTestApp({ anonymous: true, elements: elementsOfV2(dates) });
  const plain = await createTestApp({ anonymous: true });
  const doc = await document(t, 'v2');
  const nickname = doc.components.schemas.User!.properties.nickname!;
  assert.equal(nickname.deprecated, true);
  assert.equal(nickname['x-sunset'], '2026-09-01T00:00:00.000Z');
  // Appended to the description the schema already has.
  assert.match(
    String(nickname.description),
    /^The name shown for the user\. .* Deprecated: use `name` instead\. Sunset: 2026-09-01T00:00:00\.000Z\.$/,
  );
  assert.equal(doc.components.schemas.UserPartial!.properties.nickname!.deprecated, true, 'the `fields` twin too');
  assert.equal(doc.components.schemas.UserInput!.properties.nickname!.deprecated, undefined, 'only the named schema');
  assert.equal(query(doc, 'fields')!.deprecated, true);
  assert.match(String(query(doc, 'fields')!.description), /Deprecated\. Sunset: 2026-09-01T00:00:00\.000Z\.$/);
  assert.deepEqual(await document(t, 'v1'), await document(plain, 'v1'), 'another version: not a byte changed');
  t.clock.set(sunsetAt);
  plain.clock.set(sunsetAt);
  const later = await document(t, 'v2');
  assert.equal(query(later, 'fields'), undefined, 'refused now, so no longer documented');
  assert.ok(query(later, 'limit'));
  assert.equal(later.components.schemas.User!.properties.nickname!.deprecated, true, 'the field stays until v3');
  await Promise.all([t.close(), plain.close()]);
});

test("the migration guide of a deprecated version lists that version's deprecated elements", async () => {
  const v1: ElementDeprecation[] = [
    { ...dates, kind: 'field', version: 'v1', element: 'User.status', schema: 'User', field: 'status' },
    ...elementsOfV2(dates)
      .filter((e) => e.kind === 'parameter')
      .map((e) => ({ ...e, version: 'v1', replacement: 'limit' })),
  ];
  const t = await createTestApp({ anonymous: true, elements: v1 });
  const res = await t.app.inject({ url: '/api/versions/v1/migration-guide', headers: { accept: 'application/json' } });
  assert.equal(res.statusCode, 200, res.body.slice(0, 200));
  const guide = res.json() as {
    deprecated: Array<{ operations: string[]; oldBehaviour: string; newBehaviour: string }>;
  };
  assert.equal(guide.deprecated.length, 2);
  assert.deepEqual(guide.deprecated[0]!.operations, ['GET /api/users']);
  assert.equal(guide.deprecated[0]!.oldBehaviour, 'sends `status`');
  assert.equal(guide.deprecated[0]!.newBehaviour, 'stop sending it; `status` is refused after 2026-09-01T00:00:00Z');
  assert.deepEqual(guide.deprecated[1], {
    endpoint: 'GET /api/users',
    operations: ['GET /api/users'],
    oldBehaviour: 'sends `fields`',
    newBehaviour: 'send `limit`; `fields` is refused after 2026-09-01T00:00:00Z',
    rule: 'parameter-deprecated',
  });
  await t.close();
});
