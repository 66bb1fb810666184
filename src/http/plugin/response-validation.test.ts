import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { defineVersionChange, defineVersions, fieldAdded, type OperationSpec } from '../../core/versions/index.ts';
import type { OperationHandler } from '../operation-types.ts';
import { versionary } from './index.ts';

// The orders API of the report: v2 adds `note`; `customer` is required in every version.
const operations: OperationSpec[] = [
  {
    id: 'orders.get',
    method: 'GET',
    path: '/orders/{id}',
    summary: 'Get an order',
    partial: 'Order',
    query: { type: 'object', additionalProperties: false, properties: { fields: { type: 'string' } } },
    responses: { 200: { description: 'The order', schema: 'Order' }, 404: { description: 'No such order' } },
  },
];
const bundle = defineVersions({
  head: {
    schemas: {
      Order: {
        type: 'object',
        required: ['id', 'total', 'customer'],
        properties: {
          id: { type: 'integer' },
          total: { type: 'number' },
          customer: { type: 'string' },
          note: { type: 'string' },
        },
      },
    },
    operations,
  },
  versions: [
    { name: 'v1' },
    {
      name: 'v2',
      changes: [
        defineVersionChange({ description: 'Orders gain a note.', instructions: [fieldAdded('Order', 'note')] }),
      ],
    },
  ],
});

// Untyped on purpose: these handlers break the schema, which the typed form would not compile.
async function serve(body: unknown, options: { validateResponses?: boolean } = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const app = Fastify({
    logger: {
      level: 'error',
      stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    },
  });
  const handlers: Record<string, OperationHandler> = { 'orders.get': async () => ({ status: 200, body }) };
  await app.register(versionary, { bundle, handlers, vendor: 'shop', ...options });
  await app.ready();
  return { app, lines };
}

test('a response without a required field is a 500 problem, logged with the operation id and the pointer', async () => {
  const { app, lines } = await serve({ id: 1, total: 3 });
  const res = await app.inject({ url: '/api/v2/orders/1' });
  assert.equal(res.statusCode, 500);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.json().code, 'INTERNAL');
  assert.match(res.json().detail, /does not match its own schema .* has been logged with this problem's requestId/);
  assert.doesNotMatch(res.body, /"total":3/, 'nothing of the broken body goes out');
  const logged = lines.find((l) => l.operationId === 'orders.get');
  assert.ok(logged, `a log line names the operation: ${JSON.stringify(lines)}`);
  assert.equal(logged.pointer, '/customer');
  assert.equal(logged.version, 'v2');
  assert.equal(logged.level, 50);
  assert.match(String(logged.msg), /orders\.get .*\/customer is required/);
});

test('a field of the wrong type is a 500 problem whose log line points at the field', async () => {
  const { app, lines } = await serve({ id: 1, total: 'three', customer: 'Ada' });
  const res = await app.inject({ url: '/api/v2/orders/1' });
  assert.equal(res.statusCode, 500);
  const logged = lines.find((l) => l.operationId === 'orders.get');
  assert.equal(logged?.pointer, '/total');
  assert.match(String(logged?.violation), /must be number/);
});

test('each version is checked against its own schema, after migration down', async () => {
  const { app, lines } = await serve({ id: 1, total: 3, note: 'leave at the door' });
  const v1 = await app.inject({ url: '/api/v1/orders/1' });
  assert.equal(v1.statusCode, 500);
  assert.equal(lines.find((l) => l.operationId === 'orders.get')?.version, 'v1');
});

test('a conforming response goes out, whole or projected by fields', async () => {
  const { app, lines } = await serve({ id: 1, total: 3, customer: 'Ada', note: 'fragile' });
  const whole = await app.inject({ url: '/api/v2/orders/1' });
  assert.equal(whole.statusCode, 200);
  assert.deepEqual(whole.json(), { id: 1, total: 3, customer: 'Ada', note: 'fragile' });
  const v1 = await app.inject({ url: '/api/v1/orders/1' });
  assert.deepEqual(v1.json(), { id: 1, total: 3, customer: 'Ada' });
  const partial = await app.inject({ url: '/api/v2/orders/1?fields=id' });
  assert.equal(partial.statusCode, 200);
  assert.deepEqual(partial.json(), { id: 1 });
  assert.deepEqual(lines, []);
});

test('the check never changes the body it checks', async () => {
  const order = { id: 1, total: 3, customer: 'Ada', extra: { kept: true } };
  const { app } = await serve(order);
  await app.inject({ url: '/api/v2/orders/1' });
  assert.deepEqual(order, { id: 1, total: 3, customer: 'Ada', extra: { kept: true } });
});

test('validateResponses: false leaves the body to the serializer alone', async () => {
  const { app } = await serve({ id: 1, total: 3 }, { validateResponses: false });
  const res = await app.inject({ url: '/api/v2/orders/1' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { id: 1, total: 3 });
});

test('a partial response is checked after projection: a broken member the fieldset leaves out is never asked for', async () => {
  const { app, lines } = await serve({ id: 1, total: 'three', customer: 'Ada' });
  const kept = await app.inject({ url: '/api/v2/orders/1?fields=id,customer' });
  assert.equal(kept.statusCode, 200);
  assert.deepEqual(kept.json(), { id: 1, customer: 'Ada' });
  assert.equal(lines.length, 0, JSON.stringify(lines));
  const broken = await app.inject({ url: '/api/v2/orders/1?fields=id,total' });
  assert.equal(broken.statusCode, 500);
  assert.equal(lines.find((l) => l.operationId === 'orders.get')?.pointer, '/total');
});

test('a partial response still owes the required members it keeps', async () => {
  const { app, lines } = await serve({ id: 1, total: 3 });
  const without = await app.inject({ url: '/api/v2/orders/1?fields=total,id' });
  assert.equal(without.statusCode, 200);
  assert.deepEqual(without.json(), { total: 3, id: 1 });
  const owed = await app.inject({ url: '/api/v2/orders/1?fields=id,customer' });
  assert.equal(owed.statusCode, 500);
  assert.doesNotMatch(owed.body, /"id":1/);
  assert.match(
    String(lines.find((l) => l.operationId === 'orders.get')?.msg),
    /Order without customer, which it requires/,
  );
});

test('the handler is told the kept names in the newest version, and nothing in an older one', async () => {
  const told: Array<string[] | undefined> = [];
  const app = Fastify();
  const handlers: Record<string, OperationHandler> = {
    'orders.get': async (ctx) => {
      told.push(ctx.fields && [...ctx.fields]);
      return { status: 200, body: { id: 1, total: 3, customer: 'Ada' } };
    },
  };
  await app.register(versionary, { bundle, handlers, vendor: 'shop' });
  for (const url of ['/api/v2/orders/1?fields=total,id', '/api/v2/orders/1', '/api/v1/orders/1?fields=id'])
    assert.equal((await app.inject({ url })).statusCode, 200, url);
  assert.deepEqual(told, [['total', 'id'], undefined, undefined]);
});
