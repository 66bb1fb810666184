import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gatewayAdminKey, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { startDataPlane, type DataPlane } from '../support/nginx.ts';
import { rawExchange, type RawExchange } from '../support/raw-socket.ts';
import { eventually } from '../support/service-process.ts';

// The edges of a request nginx reads before (or instead of) the rules: targets it cannot decode,
// absolute-form targets, raw bytes. Each is core's problem, as the gateway answers it, and none
// reaches the upstream or the usage log.

/** One request over a socket of its own, the target sent byte for byte (Latin-1). */
async function send(
  nginx: DataPlane,
  method: string,
  target: string | { target: string; body: string },
): Promise<RawExchange> {
  const body = typeof target === 'string' ? undefined : target.body;
  const path = typeof target === 'string' ? target : target.target;
  const head =
    `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${gatewayAdminKey}\r\n` +
    (body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n`) +
    'Connection: close\r\n\r\n' +
    (body ?? '');
  return rawExchange({ port: Number(new URL(nginx.base).port) }, [Buffer.from(head, 'latin1')], { waitMs: 5000 });
}

describe('nginx at the edges of a request', () => {
  let python: PythonUpstream;
  let nginx: DataPlane;
  before(async () => {
    python = await startPythonUpstream();
    // v1 forwards the paths its document does not declare; v2 answers them 404.
    nginx = await startDataPlane({
      upstream: python.url,
      gateway: {
        versions: {
          v1: { upstream: python.url, openapi: './openapi-v1.json', forwardUndocumented: true },
          v2: { upstream: python.url, openapi: './openapi-v2.json' },
        },
      },
    });
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it('answers the targets nginx cannot decode, other schemes and raw bytes with the problem the gateway gives', async () => {
    const cases: Array<[target: string, status: number, detail: RegExp]> = [
      ['/api/v2/users/%zz', 404, /a "%" that is not followed by two hexadecimal digits/],
      ['/api/v2/users/%', 404, /a "%" that is not followed by two hexadecimal digits/],
      ['/api/v2/users/%2', 404, /a "%" that is not followed by two hexadecimal digits/],
      ['/api/v2/users/%00', 404, /an encoded control character/],
      ['/portal/%zz', 404, /a "%" that is not followed by two hexadecimal digits/],
      ['ftp://x/api/v2/users/1', 404, /neither a path nor an absolute http URL/],
      ['/api/v2/users\xC0\xAF1', 400, /^The request target is not a valid URL\.$/],
      ['/api/v2/users/1?a=\xC0', 400, /^The request target is not a valid URL\.$/],
      ['/api/v3/%2e%2e/v2/users', 404, /a "\." or "\.\." segment/],
      ['/api/v2/users/1?x=%e9', 400, /^The request target is not valid percent-encoded UTF-8\.$/],
    ];
    for (const [target, status, detail] of cases) {
      const res = await send(nginx, 'GET', target);
      assert.equal(res.status, status, target);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', target);
      const problem = JSON.parse(res.body) as { status: number; detail: string; type: string };
      assert.equal(problem.status, status, target);
      assert.match(problem.detail, detail, target);
    }
    // A call that reaches the upstream is counted: usage is sent, and of the above only the
    // query's refusal is in it (a call of the operation, judged after the rules, as the gateway's).
    assert.equal((await send(nginx, 'GET', '/api/v2/users/1')).status, 200);
    await eventually(async () => nginx.usage().some((entry) => entry.status === 200), 5000);
    assert.deepEqual(
      nginx
        .usage()
        .map((entry) => `${entry.status} ${entry.operation} ${entry.calls}`)
        .sort(),
      ['200 /users/{id} 1', '400 /users/{id} 1'],
    );
  });

  it('reads an absolute-form http target as its path', async () => {
    const res = await send(nginx, 'GET', 'http://x/api/v2/users/1');
    assert.equal(res.status, 200);
    assert.equal((JSON.parse(res.body) as { id: number }).id, 1);
  });

  it('serves a method only where the route declares it: any other is the 405 with Allow, OPTIONS a 204, never forwarded', async () => {
    const methods = ['PROPFIND', 'PURGE', 'SEARCH', 'MKCOL', 'LINK', 'TRACE', 'PUT', 'DELETE', 'FOO'];
    for (const method of methods) {
      const res = await send(nginx, method, '/api/v2/users');
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS', method);
      const problem = JSON.parse(res.body) as { code: string; detail: string };
      assert.equal(problem.code, 'METHOD_NOT_ALLOWED', method);
      assert.equal(problem.detail, `${method} is not supported here. Allowed: GET, HEAD, OPTIONS.`);
    }
    // QUERY, which the upstream's document does not declare, with the body it takes.
    const query = await send(nginx, 'QUERY', { target: '/api/v2/users', body: '{}' });
    assert.equal(query.status, 405);
    assert.equal(query.headers.allow, 'GET, HEAD, OPTIONS');
    const options = await send(nginx, 'OPTIONS', '/api/v2/users/1');
    assert.equal(options.status, 204);
    assert.equal(options.headers.allow, 'GET, HEAD, OPTIONS');
    // A path the document does not name: the 404 whatever the method, never forwarded; where the
    // version forwards them, the version's own methods, and another is refused.
    for (const method of ['GET', 'PROPFIND', 'OPTIONS', 'TRACE']) {
      const refused = await send(nginx, method, '/api/v2/nothing');
      assert.equal(refused.status, 404, method);
      const problem = JSON.parse(refused.body) as { code: string; detail: string };
      assert.equal(problem.code, 'NOT_FOUND', method);
      assert.equal(problem.detail, 'v2 has no operation at /api/v2/nothing.', method);
    }
    assert.deepEqual(
      (await python.received()).filter((target) => target.includes('nothing')),
      [],
    );
    const undocumented = await send(nginx, 'PROPFIND', '/api/v1/nothing');
    assert.equal(undocumented.status, 405);
    assert.match(String(undocumented.headers.allow), /^GET, .*HEAD, OPTIONS$/);
    const forwarded = await send(nginx, 'GET', '/api/v1/nothing');
    assert.equal(forwarded.status, 404, "the upstream's own 404");
    assert.deepEqual(JSON.parse(forwarded.body), { error: 'not here', path: '/api/v1/nothing' });
    // The documented method goes on, counted; none of the above is a call of the version.
    assert.equal((await send(nginx, 'GET', '/api/v2/users')).status, 200);
    await eventually(async () => nginx.usage().some((line) => line.operation === '/users'), 5000);
    assert.deepEqual(
      nginx
        .usage()
        .filter(
          (line) =>
            line.status === 405 ||
            line.status === 204 ||
            line.method !== 'GET' ||
            (line.version === 'v2' && line.operation === '/nothing'),
        )
        .map((line) => `${line.method} ${line.status}`),
      [],
    );
  });
});
