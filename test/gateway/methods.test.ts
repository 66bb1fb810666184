import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

// One rule for methods, as nginx and the service follow it: served only where the document
// declares an operation for it; any other method is the 405 with `Allow`, never forwarded.

/** A request with any method and an optional JSON body: its status, `Allow` and problem code. */
function call(
  base: string,
  o: { method: string; path: string; body?: string },
): Promise<{ status: number; allow?: string; code?: string }> {
  const url = new URL(base);
  const headers: Record<string, string> = { authorization: `Bearer ${gatewayAdminKey}` };
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: o.path, method: o.method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        const problem = /problem\+json/.test(String(res.headers['content-type']))
          ? (JSON.parse(text) as { code?: string })
          : undefined;
        resolve({
          status: res.statusCode!,
          ...(res.headers.allow === undefined ? {} : { allow: res.headers.allow }),
          ...(problem?.code === undefined ? {} : { code: problem.code }),
        });
      });
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

describe('gateway: a method is forwarded only where the document declares it', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({ upstream: python.url });
  });
  after(async () => {
    await gateway?.stop();
    await python?.stop();
  });

  const refused = { status: 405, allow: 'GET, HEAD, OPTIONS', code: 'METHOD_NOT_ALLOWED' };

  it('answers undeclared methods on a documented path with the 405 and Allow, TRACE included', async () => {
    for (const method of ['PROPFIND', 'PURGE', 'SEARCH', 'MKCOL', 'LINK', 'TRACE', 'PUT', 'DELETE', 'PATCH'])
      assert.deepEqual(await call(gateway.base, { method, path: '/api/v2/users' }), refused, method);
    assert.deepEqual(await call(gateway.base, { method: 'QUERY', path: '/api/v2/users', body: '{}' }), refused);
    // POST is the version's (the catch-all takes it) but not this path's: refused, not forwarded.
    assert.deepEqual(await call(gateway.base, { method: 'POST', path: '/api/v2/users', body: '{}' }), {
      ...refused,
    });
    assert.deepEqual(await call(gateway.base, { method: 'OPTIONS', path: '/api/v2/users/1' }), {
      status: 204,
      allow: 'GET, HEAD, OPTIONS',
    });
    assert.equal((await call(gateway.base, { method: 'GET', path: '/api/v2/users' })).status, 200);
  });

  it("answers its own document and the management API's routes alike", async () => {
    for (const method of ['PUT', 'TRACE', 'PROPFIND'])
      assert.deepEqual(await call(gateway.base, { method, path: '/api/v2/openapi.json' }), refused, method);
    assert.deepEqual(await call(gateway.base, { method: 'OPTIONS', path: '/admin/v1/clients' }), {
      status: 204,
      allow: 'GET, POST, HEAD, OPTIONS',
    });
    assert.deepEqual(await call(gateway.base, { method: 'PROPFIND', path: '/admin/v1/clients' }), {
      status: 405,
      allow: 'GET, POST, HEAD, OPTIONS',
      code: 'METHOD_NOT_ALLOWED',
    });
  });
});
