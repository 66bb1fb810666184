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
} from '../support/gateway.ts';

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
