// QUERY (the safe method with a body) through a library app over real sockets: routed, validated,
// negotiated, versioned, deprecated like any other operation, and documented as `query` in 3.2
// documents and `x-query` in 3.1 ones. Node's HTTP parser must accept the method: it runs again
// on each Node line CI tests (scripts/test-files.ts), and passed on 20.20, 22.23 and 24.22.
import assert from 'node:assert/strict';
import { METHODS, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { defineVersionChange, defineVersions, fieldAdded, type OperationSpec } from '../../src/core/versions/index.ts';
import type { OperationHandler } from '../../src/http/index.ts';
import { versionary, versionRewriter } from '../../src/http/plugin/index.ts';

const schemas = {
  Order: {
    type: 'object',
    properties: { id: { type: 'integer' }, status: { type: 'string' }, total: { type: 'integer' } },
    required: ['id', 'status'],
    additionalProperties: false,
  },
  OrderSearch: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['open', 'paid'] } },
    required: ['status'],
    additionalProperties: false,
  },
  OrderList: {
    type: 'object',
    properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Order' } } },
    required: ['items'],
  },
};
const operations: OperationSpec[] = [
  {
    id: 'orders.get',
    method: 'GET',
    path: '/orders/{id}',
    summary: 'An order',
    responses: { 200: { description: 'The order', schema: 'Order' }, 404: { description: 'No such order' } },
  },
  {
    id: 'orders.search',
    method: 'QUERY',
    path: '/orders',
    summary: 'Orders matching a search',
    body: 'OrderSearch',
    responses: { 200: { description: 'The matching orders', schema: 'OrderList' } },
  },
];
const orders = [
  { id: 1, status: 'open', total: 10 },
  { id: 2, status: 'paid', total: 20 },
  { id: 3, status: 'open', total: 30 },
];
// v2 added `total`: a v1 client never sees it, whichever method it reads with.
const v2 = defineVersionChange({
  description: 'Orders show their total.',
  instructions: [fieldAdded('Order', 'total')],
});
const handlers: Record<string, OperationHandler> = {
  'orders.get': async ({ params }) => ({ status: 200, body: orders.find((o) => o.id === Number(params.id)) }),
  'orders.search': async ({ body }) => ({
    status: 200,
    body: { items: orders.filter((o) => o.status === (body as { status: string }).status) },
  }),
};

async function start(openapiVersion?: '3.1' | '3.2'): Promise<{ app: FastifyInstance; origin: string }> {
  const bundle = defineVersions({
    head: { schemas, operations },
    versions: [{ name: 'v1' }, { name: 'v2', changes: [v2] }],
  });
  const app = Fastify({ rewriteUrl: versionRewriter({ bundle, vendor: 'shop' }) });
  await app.register(versionary, {
    bundle,
    handlers,
    vendor: 'shop',
    openapi: { title: 'Shop', ...(openapiVersion ? { openapiVersion } : {}) },
    lifecycle: {
      versions: {},
      endpointDeprecations: [
        { version: 'v1', method: 'QUERY', path: '/orders', deprecatedAt: '2026-01-01', sunsetAt: '2099-01-01' },
      ],
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** One request over a socket, any method, with an optional JSON body. */
function send(
  origin: string,
  options: { method: string; path: string; body?: unknown; headers?: Record<string, string> },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpRequest(`${origin}${options.path}`, {
      method: options.method,
      headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

// A Node whose HTTP parser predates QUERY answers it 400 before any route runs: nothing to test there.
const skip = METHODS.includes('QUERY') ? false : `Node ${process.version}'s HTTP parser does not know QUERY`;

describe('QUERY operations over HTTP', { skip }, () => {
  let served: { app: FastifyInstance; origin: string };
  before(async () => (served = await start()));
  after(() => served.app.close());

  it('answers a QUERY with its body read, validated and answered as declared', async () => {
    const res = await send(served.origin, { method: 'QUERY', path: '/api/v2/orders', body: { status: 'open' } });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(JSON.parse(res.body), { items: [orders[0], orders[2]] });
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    const bad = await send(served.origin, { method: 'QUERY', path: '/api/v2/orders', body: { status: 'lost' } });
    assert.equal(bad.status, 400);
    assert.match(String(bad.headers['content-type']), /^application\/problem\+json/);
  });

  it('is negotiated by Accept on the unversioned path, like any other method', async () => {
    const res = await send(served.origin, {
      method: 'QUERY',
      path: '/api/orders',
      body: { status: 'paid' },
      headers: { accept: 'application/vnd.shop.v1+json' },
    });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(JSON.parse(res.body), { items: [{ id: 2, status: 'paid' }] }, 'v1 has no total');
    assert.match(String(res.headers.vary), /accept/i);
  });

  it('carries its endpoint deprecation in v1 only', async () => {
    const v1 = await send(served.origin, { method: 'QUERY', path: '/api/v1/orders', body: { status: 'open' } });
    assert.equal(v1.status, 200, v1.body);
    assert.ok(v1.headers.deprecation, 'v1 QUERY /orders is deprecated');
    assert.ok(v1.headers.sunset);
    const v2 = await send(served.origin, { method: 'QUERY', path: '/api/v2/orders', body: { status: 'open' } });
    assert.equal(v2.headers.deprecation, undefined);
  });

  it('is listed in Allow, and a method the path does not declare is refused', async () => {
    const options = await send(served.origin, { method: 'OPTIONS', path: '/api/v2/orders' });
    assert.equal(options.status, 204);
    assert.deepEqual(String(options.headers.allow).split(', ').sort(), ['OPTIONS', 'QUERY']);
    const get = await send(served.origin, { method: 'GET', path: '/api/v2/orders' });
    assert.equal(get.status, 405);
    assert.match(String(get.headers.allow), /QUERY/);
    const query = await send(served.origin, { method: 'QUERY', path: '/api/v2/orders/1', body: { status: 'open' } });
    assert.equal(query.status, 405, 'QUERY where only GET is declared');
  });

  it('is documented as the x-query extension in the default 3.1 document', async () => {
    const res = await send(served.origin, { method: 'GET', path: '/api/v1/openapi.json' });
    const doc = JSON.parse(res.body) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    assert.equal(doc.openapi, '3.1.0');
    const item = doc.paths['/api/v1/orders']!;
    assert.deepEqual(Object.keys(item), ['x-query']);
    assert.equal((item['x-query'] as { operationId: string; deprecated?: boolean }).operationId, 'orders.search');
    assert.equal((item['x-query'] as { deprecated?: boolean }).deprecated, true);
  });
});

describe('QUERY in a 3.2 document', { skip }, () => {
  let served: { app: FastifyInstance; origin: string };
  before(async () => (served = await start('3.2')));
  after(() => served.app.close());

  it('is the path item’s `query` operation', async () => {
    const res = await send(served.origin, { method: 'GET', path: '/api/v2/openapi.json' });
    const doc = JSON.parse(res.body) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    assert.equal(doc.openapi, '3.2.0');
    assert.deepEqual(Object.keys(doc.paths['/api/v2/orders']!), ['query']);
    const op = doc.paths['/api/v2/orders']!.query as { requestBody: unknown };
    assert.deepEqual(op.requestBody, {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderSearch' } } },
    });
  });
});
