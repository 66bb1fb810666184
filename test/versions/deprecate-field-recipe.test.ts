import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { ElementDeprecation } from '../../src/core/lifecycle/index.ts';
import { checkDeprecatedRemovals, toOpenApiDocument, type VersionBundle } from '../../src/core/versions/index.ts';
import { buildRecipeApp } from '../support/recipe-app.ts';
import { addDeliveryNote, removeNote, schemas } from './recipes/deprecate-field.ts';

// The "Deprecate a field safely" recipe of docs/api.md, served by the plugin: v2 takes either field,
// v3 only the new one, and every version reads what the one v3 handler stored.
const note = (schema: string): ElementDeprecation => ({
  kind: 'field',
  version: 'v2',
  element: `${schema}.note`,
  schema,
  field: 'note',
  deprecatedAt: Date.UTC(2026, 8, 1),
  sunsetAt: Date.UTC(2027, 8, 1),
  replacement: 'deliveryNote',
});
let app: FastifyInstance;
let bundle: VersionBundle;
let orders: Map<number, object>;
before(async () => {
  ({ app, bundle, orders } = await buildRecipeApp({
    schemas,
    changes: [],
    versions: [{ name: 'v1' }, { name: 'v2', changes: [addDeliveryNote] }, { name: 'v3', changes: [removeNote] }],
    // As docs/api.md declares it: v3's removal must match v2's deprecation, or registration fails.
    lifecycle: {
      fieldDeprecations: ['Order', 'OrderInput'].map((schema) => ({
        version: 'v2',
        schema,
        field: 'note',
        deprecatedAt: '2026-09-01',
        sunsetAt: '2027-09-01',
        replacement: 'deliveryNote',
      })),
    },
  }));
});
after(() => app.close());
const post = (version: string, payload: object) =>
  app.inject({ method: 'POST', url: `/api/${version}/orders`, payload }).then((r) => [r.statusCode, r.json()]);
const get = (version: string, id: number) => app.inject({ url: `/api/${version}/orders/${id}` }).then((r) => r.json());

describe('recipe: deprecate a field safely', () => {
  it('v2 takes the old field or the new one; the handler always gets the new one', async () => {
    assert.deepEqual(await post('v2', { customer: 'Ada', note: 'ring twice' }), [
      201,
      { id: 1, customer: 'Ada', note: 'ring twice', deliveryNote: 'ring twice' },
    ]);
    assert.deepEqual(orders.get(1), { id: 1, customer: 'Ada', deliveryNote: 'ring twice' });
    assert.deepEqual((await post('v2', { customer: 'Bo', deliveryNote: 'porch' }))[0], 201);
  });

  it('v2 responses keep the deprecated field until v3; v3 has only the new one; v1 only the old', async () => {
    assert.deepEqual(await get('v2', 2), { id: 2, customer: 'Bo', note: 'porch', deliveryNote: 'porch' });
    assert.deepEqual(await get('v3', 2), { id: 2, customer: 'Bo', deliveryNote: 'porch' });
    assert.deepEqual(await get('v1', 2), { id: 2, customer: 'Bo', note: 'porch' });
    // v3 no longer knows `note`: its document says additionalProperties false, and the plugin
    // holds a body to its document whatever the app's ajv options, so it is refused, not dropped.
    const [status, problem] = await post('v3', { customer: 'Cy', note: 'x' });
    assert.equal(status, 400, 'v3 no longer knows `note`');
    assert.match(JSON.stringify(problem), /note/);
    assert.equal(orders.get(3), undefined, 'nothing is stored');
  });

  it('the removal matches the declared deprecation, and v2 documents the field as deprecated', () => {
    assert.deepEqual(checkDeprecatedRemovals({ bundle, elements: [note('Order'), note('OrderInput')] }), []);
    assert.equal(
      checkDeprecatedRemovals({ bundle, elements: [note('Order')] }).length,
      1,
      'OrderInput.note was never announced',
    );
    const doc = toOpenApiDocument({
      version: bundle.get('v2')!,
      title: 'Orders',
      basePath: '/api/v2',
      elements: { deprecations: [note('Order')], now: Date.UTC(2026, 9, 1) },
    }) as { components: { schemas: Record<string, { properties: Record<string, { deprecated?: boolean }> }> } };
    assert.equal(doc.components.schemas.Order!.properties.note!.deprecated, true);
  });

  it('docs/api.md shows the recipe as it is, importing from versionary', () => {
    const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const code = readFileSync(new URL('./recipes/deprecate-field.ts', import.meta.url), 'utf8').replace(
      "from '../../../src/index.ts'",
      "from 'versionary'",
    );
    assert.ok(docs.includes(`\`\`\`ts\n${code}\`\`\`\n`), `docs/api.md lacks this block:\n${code}`);
  });
});
