import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { migrationProperties } from '../support/migration-properties.ts';
import { buildRecipeApp, type RecipeAppOptions } from '../support/recipe-app.ts';
import { addReceipt, receipt, schemas as endpointSchemas } from './recipes/endpoint.ts';
import { schemas as enumSchemas, shippingOptions } from './recipes/enum.ts';
import { cityIntoAddress, schemas as moveSchemas } from './recipes/move.ts';
import { renameCustomer, schemas as renameSchemas } from './recipes/rename.ts';
import { schemas as retypeSchemas, totalInCents } from './recipes/retype.ts';
import { schemas as splitSchemas, splitCustomerName } from './recipes/split.ts';

// Each recipe of docs/api.md, served by the plugin: what each version answers and accepts, to the
// byte, and what the one v2 handler was given. The docs show these files as they are.
const send = async (app: FastifyInstance, options: { method?: 'GET' | 'POST'; url: string; payload?: unknown }) => {
  const res = await app.inject({
    method: options.method ?? 'GET',
    url: options.url,
    ...(options.payload === undefined ? {} : { payload: options.payload as object }),
  });
  return { status: res.statusCode, body: res.body === '' ? undefined : (res.json() as unknown) };
};
const place = (app: FastifyInstance, version: string, payload: unknown) =>
  send(app, { method: 'POST', url: `/api/${version}/orders`, payload });
const read = (app: FastifyInstance, url: string) => send(app, { url });

const recipes: Array<{ name: string; file: string; options: RecipeAppOptions }> = [
  { name: 'rename', file: 'rename.ts', options: { schemas: renameSchemas, changes: [renameCustomer] } },
  { name: 'split', file: 'split.ts', options: { schemas: splitSchemas, changes: [splitCustomerName] } },
  { name: 'type change', file: 'retype.ts', options: { schemas: retypeSchemas, changes: [totalInCents] } },
  { name: 'enum values', file: 'enum.ts', options: { schemas: enumSchemas, changes: [shippingOptions] } },
  { name: 'move into a sub-object', file: 'move.ts', options: { schemas: moveSchemas, changes: [cityIntoAddress] } },
  {
    name: 'endpoint added',
    file: 'endpoint.ts',
    options: {
      schemas: endpointSchemas,
      changes: [addReceipt],
      operations: [receipt],
      handlers: {
        'orders.receipt': async ({ params }) => ({
          status: 200,
          body: { orderId: Number(params.id), text: `Order ${params.id}` },
        }),
      },
    },
  },
];

describe('recipes: what each version answers and accepts', () => {
  it('rename: v1 keeps customerName, v2 has customer, one handler sees customer only', async () => {
    const { app, orders } = await buildRecipeApp(recipes[0]!.options);
    assert.deepEqual(await place(app, 'v1', { customerName: 'Ada' }), {
      status: 201,
      body: { id: 1, customerName: 'Ada' },
    });
    assert.deepEqual(orders.get(1), { id: 1, customer: 'Ada' });
    assert.deepEqual(await read(app, '/api/v2/orders/1'), { status: 200, body: { id: 1, customer: 'Ada' } });
    assert.deepEqual(await place(app, 'v2', { customer: 'Bo' }), { status: 201, body: { id: 2, customer: 'Bo' } });
    assert.deepEqual(await read(app, '/api/v1/orders/2'), { status: 200, body: { id: 2, customerName: 'Bo' } });
    assert.equal((await place(app, 'v1', { customer: 'Cy' })).status, 400);
    assert.equal((await place(app, 'v2', { customerName: 'Cy' })).status, 400);
  });

  it('split: v1 customerName becomes firstName and lastName, and joins back', async () => {
    const { app, orders } = await buildRecipeApp(recipes[1]!.options);
    assert.deepEqual(await place(app, 'v1', { customerName: 'Ada King Lovelace' }), {
      status: 201,
      body: { id: 1, customerName: 'Ada King Lovelace' },
    });
    assert.deepEqual(orders.get(1), { id: 1, firstName: 'Ada King', lastName: 'Lovelace' });
    assert.deepEqual(await read(app, '/api/v2/orders/1'), {
      status: 200,
      body: { id: 1, firstName: 'Ada King', lastName: 'Lovelace' },
    });
    assert.deepEqual(await place(app, 'v2', { firstName: 'Grace', lastName: 'Hopper' }), {
      status: 201,
      body: { id: 2, firstName: 'Grace', lastName: 'Hopper' },
    });
    assert.deepEqual(await read(app, '/api/v1/orders/2'), {
      status: 200,
      body: { id: 2, customerName: 'Grace Hopper' },
    });
  });

  it('type change: v1 total is a decimal string, v2 integer cents', async () => {
    const { app, orders } = await buildRecipeApp(recipes[2]!.options);
    assert.deepEqual(await place(app, 'v1', { total: '42.50' }), { status: 201, body: { id: 1, total: '42.50' } });
    assert.deepEqual(orders.get(1), { id: 1, total: 4250 });
    assert.deepEqual(await place(app, 'v2', { total: 1999 }), { status: 201, body: { id: 2, total: 1999 } });
    assert.deepEqual(await read(app, '/api/v1/orders/2'), { status: 200, body: { id: 2, total: '19.99' } });
    assert.equal((await place(app, 'v1', { total: '42.5' })).status, 400);
    assert.equal((await place(app, 'v2', { total: '42.50' })).status, 400);
  });

  it('enum values: v1 sees pickup as standard, and its overnight orders ship express', async () => {
    const { app, orders } = await buildRecipeApp(recipes[3]!.options);
    assert.deepEqual(await place(app, 'v1', { shipping: 'overnight' }), {
      status: 201,
      body: { id: 1, shipping: 'express' },
    });
    assert.deepEqual(orders.get(1), { id: 1, shipping: 'express' });
    assert.deepEqual(await place(app, 'v2', { shipping: 'pickup' }), {
      status: 201,
      body: { id: 2, shipping: 'pickup' },
    });
    assert.deepEqual(await read(app, '/api/v1/orders/2'), { status: 200, body: { id: 2, shipping: 'standard' } });
    assert.equal((await place(app, 'v1', { shipping: 'pickup' })).status, 400);
    assert.equal((await place(app, 'v2', { shipping: 'overnight' })).status, 400);
  });

  it('move into a sub-object: v1 city is v2 address.city', async () => {
    const { app, orders } = await buildRecipeApp(recipes[4]!.options);
    assert.deepEqual(await place(app, 'v1', { city: 'Paris' }), { status: 201, body: { id: 1, city: 'Paris' } });
    assert.deepEqual(orders.get(1), { id: 1, address: { city: 'Paris' } });
    assert.deepEqual(await place(app, 'v2', { address: { city: 'Lyon' } }), {
      status: 201,
      body: { id: 2, address: { city: 'Lyon' } },
    });
    assert.deepEqual(await read(app, '/api/v1/orders/2'), { status: 200, body: { id: 2, city: 'Lyon' } });
    assert.equal((await place(app, 'v2', { city: 'Nice' })).status, 400);
  });

  it('endpoint added: v2 routes the receipt, v1 answers 404', async () => {
    const { app } = await buildRecipeApp(recipes[5]!.options);
    assert.deepEqual(await place(app, 'v1', { customer: 'Ada' }), { status: 201, body: { id: 1, customer: 'Ada' } });
    assert.deepEqual(await read(app, '/api/v2/orders/1/receipt'), {
      status: 200,
      body: { orderId: 1, text: 'Order 1' },
    });
    const v1 = await read(app, '/api/v1/orders/1/receipt');
    assert.equal(v1.status, 404);
    assert.equal((v1.body as { status: number }).status, 404);
  });
});

describe('recipes: every generated body migrates to a valid one', async () => {
  for (const recipe of recipes) {
    const { bundle } = await buildRecipeApp(recipe.options);
    for (const property of migrationProperties(bundle)) it(`${recipe.name}: ${property.name}`, property.run);
  }
});

describe('recipes: docs/api.md shows the tested code', () => {
  const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  for (const recipe of recipes) {
    it(`shows ${recipe.file} as it is, importing from versionary`, () => {
      const code = readFileSync(new URL(`./recipes/${recipe.file}`, import.meta.url), 'utf8').replace(
        "from '../../../src/index.ts'",
        "from 'versionary'",
      );
      assert.ok(docs.includes(`\`\`\`ts\n${code}\`\`\`\n`), `docs/api.md lacks this block:\n${code}`);
    });
  }
});
