import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { createFixedClock } from '../../src/core/clock/index.ts';
import type { ElementDeprecation, LifecycleSource } from '../../src/core/lifecycle/index.ts';
import { toOpenApiDocument } from '../../src/core/versions/index.ts';
import { versionary } from '../../src/http/plugin/index.ts';
import { buildRecipeApp } from '../support/recipe-app.ts';
import { addDeliveryNote, removeNote, schemas } from '../versions/recipes/deprecate-field.ts';

// The plain plugin documents a lifecycle source's deprecated fields, in its own document and
// through a custom `openapi.document` builder, which is handed them with the plugin clock's now.
const sunsetAt = Date.UTC(2027, 8, 1);
const note: ElementDeprecation = {
  kind: 'field',
  version: 'v2',
  element: 'Order.note',
  schema: 'Order',
  // Both schemas, as v3's removal names both: the plugin checks the two agree at registration.
  schemas: ['Order', 'OrderInput'],
  field: 'note',
  deprecatedAt: Date.UTC(2026, 8, 1),
  sunsetAt,
  replacement: 'deliveryNote',
};
// A source with elements(), as the service runtime and the config lifecycle (`fieldDeprecations`) are.
const source: LifecycleSource & { elements(): readonly ElementDeprecation[] } = {
  verdict: () => ({ headers: {}, deprecated: false }),
  elements: () => [note],
};

test('the plugin marks a deprecated field in its document, and hands it to a custom builder', async () => {
  const { bundle } = await buildRecipeApp({
    schemas,
    changes: [],
    versions: [{ name: 'v1' }, { name: 'v2', changes: [addDeliveryNote] }, { name: 'v3', changes: [removeNote] }],
    lifecycle: {
      fieldDeprecations: [
        {
          version: 'v2',
          schema: ['Order', 'OrderInput'],
          field: 'note',
          deprecatedAt: '2026-09-01',
          sunsetAt: '2027-09-01',
        },
      ],
    },
  });
  const clock = createFixedClock(Date.UTC(2026, 9, 1));
  const handlers = { 'orders.create': async () => ({ status: 201 }), 'orders.get': async () => ({ status: 200 }) };
  const seen: unknown[] = [];
  for (const document of [
    undefined,
    (input: Parameters<typeof toOpenApiDocument>[0]) => (seen.push(input.elements), toOpenApiDocument(input)),
  ]) {
    const app = Fastify();
    await app.register(versionary, {
      bundle,
      handlers,
      vendor: 'shop',
      lifecycle: source,
      clock,
      openapi: document ? { title: 'Orders', document } : { title: 'Orders' },
    });
    const doc = (await app.inject({ url: '/api/v2/openapi.json' })).json() as {
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    assert.equal(doc.components.schemas.Order!.properties.note!.deprecated, true);
    assert.equal(doc.components.schemas.Order!.properties.note!['x-sunset'], '2027-09-01T00:00:00.000Z');
    assert.equal(doc.components.schemas.Order!.properties.note!['x-speakeasy-deprecation-replacement'], 'deliveryNote');
    assert.equal(
      doc.components.schemas.Order!.properties.note!['x-stainless-deprecation-message'],
      'Deprecated since 2026-09-01; sunset 2027-09-01 (removed after). Use `deliveryNote` instead.',
    );
    assert.equal(doc.components.schemas.Order!.properties.note!['x-fern-availability'], 'deprecated');
    const v3 = (await app.inject({ url: '/api/v3/openapi.json' })).json() as typeof doc;
    assert.equal(v3.components.schemas.Order!.properties.note, undefined);
    await app.close();
  }
  assert.deepEqual(seen[0], { deprecations: [note], now: Date.UTC(2026, 9, 1) });
});
