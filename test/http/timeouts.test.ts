import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defaultTimeouts } from '../../src/service/app/timeouts.ts';
import { rawExchange } from '../support/raw-socket.ts';
import { createTestApp, testAdminKey, type TestApp } from '../support/test-app.ts';

// Short timeouts so the test is quick; Node checks them once a second, and a loaded machine may
// be slower still, so "within the bound" allows the check interval plus generous slack.
const timeouts = { headersSeconds: 1, requestSeconds: 2, keepAliveSeconds: 1, idleSeconds: 30 };
const slack = 6000;

describe('client timeouts over a raw socket', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify({ timeouts }) } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  it('cut off a body that stalls (Content-Length: 100, 4 bytes sent) with 408 and close the socket', async () => {
    const head = `POST /api/v2/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${testAdminKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const res = await rawExchange(t.app, [head, '{"na'], { waitMs: timeouts.requestSeconds * 1000 + slack });
    assert.notEqual(res.closedAfter, undefined, 'the server closed the connection');
    assert.ok(res.closedAfter! >= timeouts.requestSeconds * 1000 - 200, `not before the timeout: ${res.closedAfter} ms`);
    assert.equal(res.status, 408, res.received);
    assert.equal(await t.storage.users.count(), 0, 'nothing was created');
  });

  it('cut off headers that never end with 408 and close the socket', async () => {
    const res = await rawExchange(t.app, ['GET /api/v2/users HTTP/1.1\r\nHost: x\r\nX-Slow: a'], { waitMs: timeouts.headersSeconds * 1000 + slack });
    assert.notEqual(res.closedAfter, undefined, 'the server closed the connection');
    assert.equal(res.status, 408, res.received);
  });

  it('close an idle keep-alive connection after keepAliveSeconds', async () => {
    const res = await rawExchange(t.app, ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'], { waitMs: timeouts.keepAliveSeconds * 1000 + slack });
    assert.equal(res.status, 200);
    assert.match(res.headers['keep-alive'] ?? '', /timeout=1\b/);
    assert.notEqual(res.closedAfter, undefined, 'the idle connection was closed');
  });
});

describe('timeout configuration', () => {
  it('defaults to what a public API would choose', async () => {
    const t = await createTestApp();
    assert.deepEqual(defaultTimeouts, { headersSeconds: 10, requestSeconds: 30, keepAliveSeconds: 5, idleSeconds: 60 });
    const server = t.app.server;
    assert.deepEqual([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout, server.timeout], [10_000, 30_000, 5_000, 60_000]);
    await t.close();
  });

  it('refuses bad values at start, listing every error', async () => {
    const bad = { timeouts: { requestSeconds: 0, headersSeconds: 5000, bogus: 1, keepAliveSeconds: 'x' } };
    await assert.rejects(createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(bad) } }), (error: Error) => {
      for (const part of ['timeouts.requestSeconds', 'timeouts.headersSeconds', 'timeouts.bogus', 'timeouts.keepAliveSeconds']) assert.ok(error.message.includes(part), `${part} in ${error.message}`);
      return true;
    });
  });
});
