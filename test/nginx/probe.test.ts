import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gatewayAdminKey, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { rawRequest, startDataPlane, type DataPlane } from '../support/nginx.ts';
import { eventually } from '../support/service-process.ts';

// Each finding of the hostile probe through nginx (issue 52), held by a test through real nginx.

const admin = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };

async function post<T>(base: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}/admin/v1/${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as T;
}

describe('the probe through nginx', () => {
  let python: PythonUpstream;
  let nginx: DataPlane;
  before(async () => {
    python = await startPythonUpstream();
    nginx = await startDataPlane({ upstream: python.url, file: { rateLimit: { max: 8, windowSeconds: 60 } } });
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it('counts every spelling of one credential against one limit: its client', async () => {
    const client = await post<{ id: string }>(nginx.control, 'clients', { name: 'spellings', contacts: [] });
    const { key } = await post<{ key: string }>(nginx.control, 'api-keys', {
      name: 'spellings',
      roles: ['read'],
      clientId: client.id,
    });
    const spellings: Array<Record<string, string>> = [
      { authorization: `Bearer ${key}` },
      { authorization: `bearer ${key}` },
      { authorization: `BEARER ${key}` },
      { authorization: `Bearer    ${key}  ` },
      { 'x-api-key': key },
      { 'x-api-key': `  ${key} ` },
      { authorization: `bEaReR ${key}` },
      { 'x-api-key': key },
    ];
    // The limit's window is a fixed minute of the clock: eight calls that straddle its end would
    // start a second count. Begin clear of the boundary, so the sequence is the limit's alone.
    const toBoundary = 60_000 - (Date.now() % 60_000);
    if (toBoundary < 10_000) await new Promise((resolve) => setTimeout(resolve, toBoundary + 250));
    const remaining: string[] = [];
    for (const headers of spellings) {
      const res = await rawRequest(nginx.base, '/api/v2/users/1', headers);
      assert.equal(res.status, 200, JSON.stringify(headers));
      assert.equal(res.headers['ratelimit-policy'], '"default";q=8;w=60');
      remaining.push(String(res.headers.ratelimit).replace(/;t=\d+$/, ''));
    }
    assert.deepEqual(
      remaining,
      [7, 6, 5, 4, 3, 2, 1, 0].map((r) => `"default";r=${r}`),
    );
    const over = await rawRequest(nginx.base, '/api/v2/users/1', { 'x-api-key': key });
    assert.equal(over.status, 429);
    assert.equal(over.headers['content-type'], 'application/problem+json; charset=utf-8');
    const problem = JSON.parse(over.body) as { code: string; detail: string; instance: string };
    assert.equal(problem.code, 'RATE_LIMITED');
    assert.match(problem.detail, /^This client may make 8 requests per 60 seconds; retry in \d+ seconds\.$/);
    assert.equal(problem.instance, '/api/v2/users/1');
    assert.match(String(over.headers['retry-after']), /^\d+$/);
  });

  it('refuses a revoked key at once, on POST (an unsafe method the document declares) and on GET', async () => {
    const client = await post<{ id: string }>(nginx.control, 'clients', { name: 'revoked', contacts: [] });
    const made = await post<{ id: string; key: string }>(nginx.control, 'api-keys', {
      name: 'revoked',
      roles: ['read', 'write'],
      clientId: client.id,
    });
    const headers = { authorization: `Bearer ${made.key}` };
    const written = await fetch(`${nginx.base}/api/v2/echo`, { method: 'POST', headers, body: '{}' });
    assert.equal(written.status, 200, await written.text());
    assert.equal((await fetch(`${nginx.base}/api/v2/users/1`, { headers })).status, 200, 'cached for GET');
    const revoked = await fetch(`${nginx.control}/admin/v1/api-keys/${made.id}`, {
      method: 'DELETE',
      headers: { authorization: admin.authorization },
    });
    assert.ok(revoked.ok, await revoked.text());
    for (const method of ['POST', 'GET']) {
      const res = await fetch(`${nginx.base}/api/v2/${method === 'GET' ? 'users/1' : 'echo'}`, { method, headers });
      assert.equal(res.status, 401, method);
      assert.equal(((await res.json()) as { code: string }).code, 'UNAUTHENTICATED');
    }
  });

  it('refuses a revoked key on a GET right after the revocation, the GET its worker answered from memory before', async () => {
    const client = await post<{ id: string }>(nginx.control, 'clients', { name: 'revoked-get', contacts: [] });
    const made = await post<{ id: string; key: string }>(nginx.control, 'api-keys', {
      name: 'revoked-get',
      roles: ['read'],
      clientId: client.id,
    });
    const headers = { authorization: `Bearer ${made.key}` };
    for (let i = 0; i < 3; i++)
      assert.equal((await fetch(`${nginx.base}/api/v2/users/1`, { headers })).status, 200, 'cached for GET');
    const revoked = await fetch(`${nginx.control}/admin/v1/api-keys/${made.id}`, {
      method: 'DELETE',
      headers: { authorization: admin.authorization },
    });
    assert.ok(revoked.ok, await revoked.text());
    const res = await fetch(`${nginx.base}/api/v2/users/1`, { headers });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, 'UNAUTHENTICATED');
  });

  it('limits failed keys per address, and never refuses a valid key for them', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await rawRequest(nginx.base, '/api/v2/users/1', { 'x-api-key': `vk_unknown_${i}` })).status);
    const firstLimited = statuses.indexOf(429);
    assert.ok(firstLimited > 0, statuses.join(' '));
    assert.ok(
      statuses.slice(0, firstLimited).every((s) => s === 401),
      statuses.join(' '),
    );
    assert.ok(
      statuses.slice(firstLimited).every((s) => s === 429),
      statuses.join(' '),
    );
    const valid = await rawRequest(nginx.base, '/api/v2/users/1', { 'x-api-key': gatewayAdminKey });
    assert.equal(valid.status, 200, 'behind one address, a valid key is not refused for the failures of others');
  });

  it("answers 404 from outside on Versionary's own paths, however spelled", async () => {
    for (const target of [
      '/_versionary/nginx/auth',
      '/_versionary/nginx/table',
      '/_versionary/control',
      '/_versionary/',
      '/_versionary%2fnginx/auth',
      '/x/../_versionary/nginx/auth',
      '/_%76ersionary/nginx/table',
    ]) {
      const res = await rawRequest(nginx.base, target, { authorization: `Bearer ${gatewayAdminKey}` });
      assert.equal(res.status, 404, target);
      assert.doesNotMatch(res.body, /"client"|"format"/, target);
    }
  });

  it('answers a repeated X-API-Key with a 400 problem, not an HTML 500', async () => {
    const res = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const url = new URL(nginx.base);
      import('node:http').then(({ request }) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: '/api/v2/users/1',
            // Raw headers, so the name can repeat (Node adds no Host to those).
            headers: [
              ['host', url.host],
              ['x-api-key', gatewayAdminKey],
              ['x-api-key', 'vk_other'],
            ].flat(),
          },
          (r) => {
            let body = '';
            r.on('data', (d) => (body += String(d)));
            r.on('end', () => resolve({ status: r.statusCode!, type: String(r.headers['content-type']), body }));
          },
        );
        req.on('error', reject);
        req.end();
      }, reject);
    });
    assert.equal(res.status, 400);
    assert.equal(res.type, 'application/problem+json; charset=utf-8');
    const problem = JSON.parse(res.body) as { code: string; detail: string };
    assert.equal(problem.code, 'MALFORMED_REQUEST');
    assert.equal(problem.detail, 'Send one X-API-Key header, not 2.');
  });
});

describe('an nginx 5xx is no client call', () => {
  let nginx: DataPlane;
  before(async () => {
    // No upstream listens there: every forwarded call is nginx's own 502.
    nginx = await startDataPlane({ upstream: 'http://127.0.0.1:9' });
  });
  after(async () => {
    await nginx?.stop();
  });

  it('answers the upstream failure with the problem, and counts no usage for it', async () => {
    const res = await fetch(`${nginx.base}/api/v2/users/1`, {
      headers: { authorization: `Bearer ${gatewayAdminKey}` },
    });
    assert.equal(res.status, 502);
    assert.equal(((await res.json()) as { code: string }).code, 'UPSTREAM_UNREACHABLE');
    // A refused call is counted (and sent within a second): it shows usage is being sent.
    assert.equal((await fetch(`${nginx.base}/api/v2/users/1`)).status, 401);
    await eventually(async () => nginx.usage().some((l) => l.status === 401), 5000);
    assert.deepEqual(
      nginx.usage().map((l) => `${l.status} ${l.calls}`),
      ['401 1'],
    );
  });
});

describe('nginx without its control plane', () => {
  let python: PythonUpstream;
  let nginx: DataPlane;
  before(async () => {
    python = await startPythonUpstream();
    nginx = await startDataPlane({ upstream: python.url });
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it('serves cached keys, answers unknown keys and unsafe calls 503, and says so once in its log', async () => {
    const headers = { authorization: `Bearer ${gatewayAdminKey}` };
    assert.equal((await fetch(`${nginx.base}/api/v2/users/1`, { headers })).status, 200);
    await nginx.stopControl();
    for (let i = 0; i < 3; i++) {
      assert.equal((await fetch(`${nginx.base}/api/v2/users/1`, { headers })).status, 200, 'a cached key, GET');
      const unknown = await fetch(`${nginx.base}/api/v2/users/1`, { headers: { 'x-api-key': `vk_new_${i}` } });
      assert.equal(unknown.status, 503);
      const problem = (await unknown.json()) as { code: string; detail: string };
      assert.equal(problem.code, 'STORAGE_UNAVAILABLE');
      assert.match(problem.detail, /control plane/);
      assert.equal(unknown.headers.get('retry-after'), '5');
      const written = await fetch(`${nginx.base}/api/v2/echo`, { method: 'POST', headers, body: '{}' });
      assert.equal(written.status, 503, 'an unsafe call never rides the cache');
    }
    const said = nginx
      .log()
      .split('\n')
      .filter((line) => line.includes('control plane at'));
    assert.equal(said.length, 1, nginx.log());
  });
});
