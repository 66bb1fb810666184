import assert from 'node:assert/strict';
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
const iso = (t: number) => new Date(t).toISOString();

/**
 * v2's `GET /users/{id}` is past its sunset; v2's `GET /echo` is deprecated; v1 forwards the paths
 * its document does not declare (`forwardUndocumented`), v2 does not.
 */
const file = {
  endpointDeprecations: [
    {
      version: 'v2',
      method: 'GET',
      path: '/users/{id}',
      deprecatedAt: iso(Date.now() - 400 * day),
      sunsetAt: iso(Date.now() - day),
    },
  ],
};

describe("gateway: the routes are the documents' (versionary gateway as a process)", () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({
      upstream: python.url,
      gateway: {
        versions: {
          v1: { upstream: python.url, openapi: './openapi-v1.json', forwardUndocumented: true },
          v2: { upstream: python.url, openapi: './openapi-v2.json' },
        },
      },
      file,
    });
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });
  const seen = async (fragment: string) => (await python.received()).filter((target) => target.includes(fragment));

  it('answers a 2,001- and a 5,001-character id on a removed endpoint 410, never forwarded', async () => {
    for (const length of [2001, 5001]) {
      const id = 'x'.repeat(length);
      for (const [url, headers] of [
        [`/api/v2/users/${id}`, auth],
        [`/api/v2/users/${id}/`, auth],
        // By `Accept`: rewritten to the version's path, then found by the same index.
        [`/api/users/${id}`, { ...auth, accept: 'application/vnd.acme.v2+json' }],
      ] as const) {
        const res = await fetch(`${gateway.base}${url}`, { headers });
        assert.equal(res.status, 410, `${length} characters: ${url.slice(0, 30)}`);
        assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
        assert.equal(((await res.json()) as { code: string }).code, 'VERSION_REMOVED');
        assert.ok(res.headers.get('sunset'), "the endpoint's Sunset");
      }
      const head = await fetch(`${gateway.base}/api/v2/users/${id}`, { method: 'HEAD', headers: auth });
      assert.equal(head.status, 410, 'HEAD judged as GET');
    }
    assert.deepEqual(await seen('/users/xx'), [], 'the upstream never saw a long id');
  });

  it("judges a long id on a served endpoint by its operation's rules, and forwards it", async () => {
    const id = '9'.repeat(3000);
    const res = await fetch(`${gateway.base}/api/v1/users/${id}`, { headers: auth });
    assert.equal(res.status, 404, "the upstream's own answer");
    assert.deepEqual(await res.json(), { error: 'no such user' });
    assert.equal((await seen(`/api/v1/users/${id}`)).length, 1, 'forwarded once, unchanged');
    // A method the template does not declare: its 405 with the path's Allow, not the version's.
    const post = await fetch(`${gateway.base}/api/v1/users/${id}`, { method: 'POST', headers: auth });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });

  it('answers a path no document declares with a 404 problem, whatever the method, never forwarded', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'PROPFIND', 'OPTIONS']) {
      const res = await fetch(`${gateway.base}/api/v2/not-in-the-document`, { method, headers: auth });
      assert.equal(res.status, 404, method);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      const problem = (await res.json()) as { type: string; code: string; detail: string };
      assert.equal(problem.code, 'NOT_FOUND');
      assert.match(problem.type, /\/problems\/not-found$/);
      assert.equal(problem.detail, 'v2 has no operation at /api/v2/not-in-the-document.');
    }
    // Below a documented path, and with a long segment: still no operation.
    const deeper = await fetch(`${gateway.base}/api/v2/users/1/${'y'.repeat(2500)}`, { headers: auth });
    assert.equal(deeper.status, 404);
    assert.deepEqual(await seen('not-in-the-document'), [], 'the upstream never saw it');
    assert.deepEqual(await seen('yyyy'), []);
  });

  it('asks only read of what goes nowhere, and write of what is forwarded', async () => {
    const admin = { ...auth, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) =>
      fetch(`${gateway.base}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
    const client = (await (await post('/admin/v1/clients', { name: 'reader', contacts: [] })).json()) as { id: string };
    const { key } = (await (
      await post('/admin/v1/api-keys', { name: 'reader', roles: ['read'], clientId: client.id })
    ).json()) as { key: string };
    const reader = { authorization: `Bearer ${key}` };
    const undocumented = await fetch(`${gateway.base}/api/v2/not-in-the-document`, { method: 'POST', headers: reader });
    assert.equal(undocumented.status, 404);
    const put = await fetch(`${gateway.base}/api/v2/users/${'1'.repeat(2500)}`, { method: 'PUT', headers: reader });
    assert.equal(put.status, 405, "a documented path's 405");
    const echo = await fetch(`${gateway.base}/api/v2/echo`, { method: 'POST', headers: reader });
    assert.equal(echo.status, 403, 'a documented POST is forwarded: it asks write');
  });

  it('forwards undocumented paths of a version that says so (forwardUndocumented), under its verdict', async () => {
    const res = await fetch(`${gateway.base}/api/v1/not-in-the-document?x=1`, { headers: auth });
    assert.equal(res.status, 404, "the upstream's own 404");
    assert.deepEqual(await res.json(), { error: 'not here', path: '/api/v1/not-in-the-document' });
    assert.deepEqual(await seen('/api/v1/not-in-the-document'), ['/api/v1/not-in-the-document?x=1']);
    // A method no operation of v1 declares is still the version's 405, never forwarded.
    const purge = await fetch(`${gateway.base}/api/v1/not-in-the-document`, { method: 'PURGE', headers: auth });
    assert.equal(purge.status, 405);
  });
});
