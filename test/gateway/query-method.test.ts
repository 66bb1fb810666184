// QUERY through `versionary gateway` as a process: forwarded, body and all, for an upstream whose
// document declares it (`query` in a 3.2 document, the `x-query` extension in a 3.1 one), and
// judged by the lifecycle like any other operation (an endpoint deprecation of `QUERY /echo`).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { METHODS, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  spawnGateway,
  startPythonUpstream,
  type PythonUpstream,
  type TestGateway,
  upstreamDocument,
} from '../support/gateway.ts';
import { derivedGateway, v1FromV2 } from '../support/derived-gateway.ts';

const auth = { authorization: `Bearer ${gatewayAdminKey}` };
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const search = {
  operationId: 'echoQuery',
  summary: 'Search with a body',
  requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
  responses: { '200': { description: 'What arrived' } },
};

type Echo = { method: string; bodyLength: number; bodySha256: string };

/** One QUERY with a JSON body over a socket (fetch would do, but this names the method as sent). */
function query(url: string, body: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'QUERY', headers: { ...auth, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// A Node whose HTTP parser predates QUERY answers it 400 before any route runs: nothing to test there.
const skip = METHODS.includes('QUERY') ? false : `Node ${process.version}'s HTTP parser does not know QUERY`;

describe('gateway: QUERY for upstreams that document it', { skip }, () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({
      upstream: python.url,
      editDocument: (version, document) => {
        const paths = document.paths as Record<string, Record<string, unknown>>;
        const echo = paths[`/api/${version}/echo`]!;
        if (version === 'v2') {
          document.openapi = '3.2.0';
          echo.query = search;
        } else echo['x-query'] = search;
      },
      file: {
        endpointDeprecations: [
          {
            version: 'v1',
            method: 'QUERY',
            path: '/echo',
            deprecatedAt: iso(Date.now() - day),
            sunsetAt: iso(Date.now() + 200 * day),
          },
        ],
      },
    });
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });

  it('forwards QUERY with its body to the upstream of a 3.2 document', async () => {
    const body = JSON.stringify({ name: 'Ada', limit: 5 });
    const res = await query(`${gateway.base}/api/v2/echo`, body);
    assert.equal(res.status, 200, res.text);
    const echo = JSON.parse(res.text) as Echo;
    assert.equal(echo.method, 'QUERY');
    assert.equal(echo.bodyLength, Buffer.byteLength(body));
    assert.equal(echo.bodySha256, createHash('sha256').update(body).digest('hex'));
    assert.equal(res.headers.deprecation, undefined);
  });

  it('forwards QUERY declared as x-query in a 3.1 document, with its endpoint deprecation', async () => {
    const res = await query(`${gateway.base}/api/v1/echo`, '{"q":"x"}');
    assert.equal(res.status, 200, res.text);
    assert.equal((JSON.parse(res.text) as Echo).method, 'QUERY');
    assert.ok(res.headers.deprecation, 'QUERY /echo is deprecated in v1');
    assert.ok(res.headers.sunset);
  });

  it('serves each document with the operation where its version puts it', async () => {
    const v2 = (await (await fetch(`${gateway.base}/api/v2/openapi.json`, { headers: auth })).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    assert.equal(v2.openapi, '3.2.0');
    assert.equal(v2.paths['/echo']?.query?.operationId, 'echoQuery');
    const v1 = (await (await fetch(`${gateway.base}/api/v1/openapi.json`, { headers: auth })).json()) as {
      paths: Record<string, Record<string, { deprecated?: boolean }>>;
    };
    assert.equal(v1.paths['/echo']?.['x-query']?.deprecated, true);
  });
});

// The derived document writes QUERY under the member its root's OpenAPI version has (3.1 has no `query`).
for (const { openapi, member, other } of [
  { openapi: '3.1.0', member: 'x-query', other: 'query' },
  { openapi: '3.2.0', member: 'query', other: 'x-query' },
] as const)
  describe(`gateway: a derived version’s QUERY whose root (${member}) requires a body`, { skip }, () => {
    const document = upstreamDocument('v2');
    document.openapi = openapi;
    const components = document.components as { schemas: Record<string, unknown> };
    components.schemas.Search = { type: 'object', properties: { name: { type: 'string' } } };
    const required = {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Search' } } },
    };
    (document.paths as Record<string, Record<string, unknown>>)['/api/v2/echo']![member] = {
      ...search,
      requestBody: required,
      responses: {
        '200': { description: 'What arrived', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    };
    const gateway = derivedGateway({
      fixture: new URL('../../examples/gateway/', import.meta.url).pathname,
      files: [],
      written: {
        'openapi-v2.json': document,
        'changes-v2.json': [
          {
            version: 'v2',
            description: 'Adds /slow.',
            instructions: [{ op: 'endpoint-added', method: 'GET', path: '/slow' }],
          },
        ],
      },
      versions: v1FromV2(),
    });
    /** A QUERY to v1's `/echo`: `body` undefined sends none (`Content-Length: 0`). */
    const send = (body: string | undefined) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const headers =
          body === undefined ? { ...auth, 'content-length': '0' } : { ...auth, 'content-type': 'application/json' };
        const req = request(`${gateway.base}/api/v1/echo`, { method: 'QUERY', headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end(body);
      });

    it('refuses it with an empty body (and without a Content-Type), never forwarding it', async () => {
      const before = (await gateway.received()).length;
      const res = await send('');
      assert.equal(res.status, 400, res.text);
      const problem = JSON.parse(res.text) as { code: string; detail: string; errors: unknown };
      assert.equal(problem.code, 'VALIDATION_FAILED', res.text);
      assert.equal(problem.detail, "v1's QUERY /echo requires a request body: send a Search as application/json.");
      assert.deepEqual(problem.errors, [{ pointer: '/body', detail: 'is required' }]);
      // QUERY without a Content-Type never reaches a route.
      assert.equal((await send(undefined)).status, 400);
      assert.equal((await gateway.received()).length, before, 'never forwarded');
      const valid = await send('{"name":"Ada"}');
      assert.equal(valid.status, 200, valid.text);
      assert.equal((JSON.parse(valid.text) as Echo).method, 'QUERY');
      const v1 = (await (await fetch(`${gateway.base}/api/v1/openapi.json`, { headers: auth })).json()) as {
        paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>>;
      };
      const echo = v1.paths['/echo'];
      // Under the member the root's version has (3.1 has no `query`), never the other.
      assert.equal(echo?.[member]?.requestBody?.required, true, JSON.stringify(echo));
      assert.equal(echo?.[other], undefined, JSON.stringify(echo));
    });
  });
