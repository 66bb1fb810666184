import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { createFixedClock } from '../../core/clock/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { defineVersionChange, defineVersions, fieldAdded, type OperationSpec } from '../../core/versions/index.ts';
import { versionary } from './index.ts';

const none = { type: 'object', additionalProperties: false };
const operations: OperationSpec[] = [
  { id: 'notes.get', method: 'GET', path: '/notes/{id}', summary: 'A note', query: none, responses: {} },
  { id: 'notes.pin', method: 'POST', path: '/notes/{id}/pin', summary: 'Pin', query: none, responses: {} },
];
const bundle = defineVersions({
  head: { schemas: { Note: { type: 'object', properties: { colour: { type: 'string' } } } }, operations },
  versions: [
    { name: 'v1' },
    {
      name: 'v2',
      changes: [
        defineVersionChange({ description: 'Notes gain a colour.', instructions: [fieldAdded('Note', 'colour')] }),
      ],
    },
  ],
});

/**
 * The plugin forwarding in an app of its own (Fastify's default `maxParamLength`, 100): a longer id
 * misses the router's template and reaches the version's catch-all, which routes it by core's
 * route index to its operation.
 */
describe('forward: the routes are the documents, whatever the router bounds', () => {
  let upstream: Server;
  let app: FastifyInstance;
  const seen: string[] = [];
  before(async () => {
    upstream = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"upstream"}');
    });
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    app = Fastify();
    await app.register(versionary, {
      bundle,
      vendor: 'notes',
      forward: { upstreams: { v1: origin, v2: origin }, forwardUndocumented: ['v1'] },
      clock: createFixedClock(parseIsoInstant('2027-01-01')!),
      lifecycle: {
        endpointDeprecations: [
          { version: 'v2', method: 'GET', path: '/notes/{id}', deprecatedAt: '2026-01-01', sunsetAt: '2026-07-01' },
        ],
      },
    });
  });
  after(async () => {
    await app.close();
    upstream.close();
  });

  it('answers a long id on a removed endpoint 410, never forwarded', async () => {
    for (const length of [101, 2001, 5001]) {
      const res = await app.inject({ url: `/api/v2/notes/${'7'.repeat(length)}` });
      assert.equal(res.statusCode, 410, `${length} characters`);
      assert.equal(res.json().code, 'VERSION_REMOVED');
      assert.ok(res.headers.sunset, "the endpoint's own Sunset");
    }
    assert.deepEqual(seen, []);
  });

  it("forwards a long id on a served endpoint as its operation, and a method it lacks is that path's 405", async () => {
    const id = '7'.repeat(300);
    const pin = await app.inject({ method: 'POST', url: `/api/v2/notes/${id}/pin` });
    assert.equal(pin.statusCode, 200);
    assert.deepEqual(seen.splice(0), [`POST /api/v2/notes/${id}/pin`]);
    const put = await app.inject({ method: 'PUT', url: `/api/v2/notes/${id}/pin` });
    assert.equal(put.statusCode, 405);
    assert.equal(put.headers.allow, 'POST, OPTIONS');
    assert.deepEqual(seen, []);
  });

  it('answers a path no document declares 404, unless the version forwards undocumented paths', async () => {
    const refused = await app.inject({ url: '/api/v2/not-in-the-document' });
    assert.equal(refused.statusCode, 404);
    assert.equal(refused.json().detail, 'v2 has no operation at /api/v2/not-in-the-document.');
    assert.deepEqual(seen, []);
    const forwarded = await app.inject({ url: '/api/v1/not-in-the-document' });
    assert.equal(forwarded.statusCode, 200);
    assert.deepEqual(seen.splice(0), ['GET /api/v1/not-in-the-document']);
  });
});
