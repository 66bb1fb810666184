import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  spawnGateway,
  startPythonUpstream,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';
import { rawExchange } from '../support/raw-socket.ts';

const day = 86_400_000;
const iso = (t: number) => new Date(t).toISOString();

/** v1 removed, v2 current with `GET /users` past its sunset and `GET /users/{id}` in a brownout. */
const hardenedFile = {
  versions: {
    v1: { deprecatedAt: iso(Date.now() - 400 * day), sunsetAt: iso(Date.now() - 10 * day), replacement: 'v2' },
  },
  endpointDeprecations: [
    {
      version: 'v2',
      method: 'GET',
      path: '/users',
      deprecatedAt: iso(Date.now() - 400 * day),
      sunsetAt: iso(Date.now() - day),
    },
  ],
  notices: {
    brownouts: [
      {
        version: 'v2',
        endpoint: 'GET /users/{id}',
        startsAt: iso(Date.now() - 60_000),
        endsAt: iso(Date.now() + 3_600_000),
      },
    ],
  },
};

describe('gateway security: one canonical path (versionary gateway as a process)', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  let port: number;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({ upstream: python.url, file: hardenedFile });
    port = Number(new URL(gateway.base).port);
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });
  const get = (target: string, headers = '') =>
    rawExchange(
      { port },
      [
        `GET ${target} HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer ${gatewayAdminKey}\r\n${headers}Connection: close\r\n\r\n`,
      ],
      { waitMs: 5000 },
    );

  it('refuses a backslash path that would reach the removed v1 or leave the prefix (sent as is)', async () => {
    for (const target of [
      '/api/v2/x\\..\\..\\v1/users/1',
      '/api/v2/\\..\\..\\..\\internal/admin',
      '/api/x\\..\\..\\v1/users/1',
    ]) {
      const res = await get(target, 'Accept: application/vnd.acme.v2+json\r\n');
      assert.equal(res.status, 404, `${target}: ${res.received.slice(0, 300)}`);
      assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
      assert.match(res.body, /NOT_FOUND|not-found/);
    }
    const received = await python.received();
    assert.deepEqual(
      received.filter((p) => !p.startsWith('/api/v2/') || p.includes('..')),
      [],
      'the upstream saw nothing outside /api/v2',
    );
  });

  it("refuses dot segments, plain or encoded, that would skip an endpoint's sunset or its brownout", async () => {
    assert.equal((await get('/api/v2/users')).status, 410, 'the canonical request is past its sunset');
    assert.equal((await get('/api/v2/users/1')).status, 410, 'the canonical request is in its brownout');
    for (const target of [
      '/api/v2/%2e/users',
      '/api/v2/%2E%2e/v2/users',
      '/api/v2/./users',
      '/api/v2/users/.',
      '/api/v2/users\\',
      '/api/v2/users/./1',
      '/api/v2/users/%2e/1',
    ]) {
      const res = await get(target);
      assert.equal(res.status, 404, `${target}: ${res.received.slice(0, 300)}`);
    }
  });

  it('refuses ambiguous spellings (matrix parameters, //, %2f, %5c, bad %) with a 404 problem, as the spec answers an invalid URI, in absolute form too', async () => {
    for (const target of [
      '/api/v2/users;x=1',
      '/api/v2//users',
      '//api/v2/users',
      '/api/v2/users%2f',
      '/api/v2/users%2F1',
      '/api/v2/%5c..%5c',
      '/api/v2/users/%ZZ',
      '/api/v2/users/%4',
      'http://other:1/api/v2/./echo',
      '*',
      '/admin/v1/../v1/api-keys',
    ]) {
      const res = await get(target);
      assert.equal(res.status, 404, `${target}: ${res.received.slice(0, 300)}`);
      assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/, target);
    }
    const received = await python.received();
    assert.deepEqual(
      received.filter((p) => /[;\\]|\/\/|%2f|%5c|\/\.\.?(\/|$)/i.test(p) || !p.startsWith('/api/v2/')),
      [],
    );
  });

  it('forwards the canonical path unchanged, query included, and an absolute-form target in origin form', async () => {
    const res = await get('/api/v2/echo?q=a%2Fb&x=1');
    assert.equal(res.status, 200, res.received.slice(0, 300));
    assert.equal((JSON.parse(res.body) as { path: string }).path, '/api/v2/echo?q=a%2Fb&x=1');
    const absolute = await get('http://other:1/api/v2/echo?x=1');
    assert.equal(absolute.status, 200, absolute.received.slice(0, 300));
    assert.equal((JSON.parse(absolute.body) as { path: string }).path, '/api/v2/echo?x=1');
  });
});
