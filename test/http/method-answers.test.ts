import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestService, type StartedService } from '../support/started-service.ts';

// The README's promise, through the server: every path answers a method it does not serve with 405
// and `Allow`, and OPTIONS with 204 and `Allow`; the API's documents and the management API too.

const adminKey = 'test-admin-key-0123456789';

/** A request with any method (fetch refuses TRACE), its status, `Allow` and problem code. */
function call(base: string, method: string, path: string): Promise<{ status: number; allow?: string; code?: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method, headers: { authorization: `Bearer ${adminKey}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          const code = body === '' ? undefined : (JSON.parse(body) as { code?: string }).code;
          resolve({
            status: res.statusCode!,
            ...(res.headers.allow === undefined ? {} : { allow: res.headers.allow }),
            ...(code === undefined ? {} : { code }),
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const operationMethods = ['get', 'put', 'post', 'delete', 'patch', 'query'];

/** `Allow` as the document says it: its methods, HEAD beside GET, and OPTIONS. */
function allowOf(item: Record<string, unknown>): string {
  const methods = operationMethods.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase());
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
}

describe('405 with Allow and OPTIONS 204, on the documents and every management route', () => {
  let service: StartedService;
  before(async () => {
    // Every management route, four calls each: more than the default limit.
    service = await startTestService({ file: { rateLimit: { max: 100_000, windowSeconds: 60 } } });
  });
  after(async () => {
    await service?.stop();
  });

  it("answers the API's documents: PUT, TRACE, PROPFIND 405, OPTIONS 204", async () => {
    for (const path of ['/api/v1/openapi.json', '/api/v2/openapi.json']) {
      for (const method of ['PUT', 'TRACE', 'PROPFIND', 'DELETE'])
        assert.deepEqual(
          await call(service.base, method, path),
          { status: 405, allow: 'GET, HEAD, OPTIONS', code: 'METHOD_NOT_ALLOWED' },
          `${method} ${path}`,
        );
      assert.deepEqual(await call(service.base, 'OPTIONS', path), { status: 204, allow: 'GET, HEAD, OPTIONS' });
    }
  });

  it('answers every route of the management document alike', async () => {
    const res = await fetch(`${service.base}/admin/v1/openapi.json`, {
      headers: { authorization: `Bearer ${adminKey}` },
    });
    assert.equal(res.status, 200);
    const paths = ((await res.json()) as { paths: Record<string, Record<string, unknown>> }).paths;
    assert.ok(Object.keys(paths).length > 20, 'the management API is documented');
    for (const [template, item] of Object.entries(paths)) {
      const path = template.replace(/\{[^}]+\}/g, 'x');
      const allow = allowOf(item);
      for (const method of ['PUT', 'TRACE', 'PROPFIND']) {
        if (item[method.toLowerCase()] !== undefined) continue;
        assert.deepEqual(
          await call(service.base, method, path),
          { status: 405, allow, code: 'METHOD_NOT_ALLOWED' },
          `${method} ${template}`,
        );
      }
      assert.deepEqual(await call(service.base, 'OPTIONS', path), { status: 204, allow }, `OPTIONS ${template}`);
    }
  });

  it('answers PROPFIND on an API route with its Allow, and a path no route serves 404', async () => {
    assert.deepEqual(await call(service.base, 'PROPFIND', '/api/v2/users'), {
      status: 405,
      allow: 'GET, POST, HEAD, OPTIONS',
      code: 'METHOD_NOT_ALLOWED',
    });
    assert.equal((await call(service.base, 'PROPFIND', '/api/v2/nothing')).status, 404);
    assert.equal((await call(service.base, 'PUT', '/admin/v1/nothing')).status, 404);
  });
});
