import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defaultTimeouts } from '../../src/kernel/app/timeouts.ts';
import { rawExchange, type RawExchange } from '../support/raw-socket.ts';
import { startTestService, type StartedService } from '../support/started-service.ts';
import { createTestApp, testAdminKey } from '../support/test-app.ts';

// Short timeouts so the test is quick; Node checks them once a second, and a loaded machine may
// be slower still, so "within the bound" allows the check interval plus generous slack.
const timeouts = { headersSeconds: 1, requestSeconds: 2, keepAliveSeconds: 1, idleSeconds: 30 };
const slack = 6000;

// Through the real composition (startService's own listening server), not Fastify's inner
// server, which never listens in production.
describe('client timeouts over a raw socket, on the server that listens', () => {
  let t: StartedService;
  before(async () => {
    t = await startTestService({ file: { timeouts } });
  });
  after(() => t.stop());

  it('cut off a body that stalls (Content-Length: 100, 4 bytes sent) with 408 and close the socket', async (c) => {
    const head = `POST /api/v2/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${testAdminKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const res = await rawExchange(t, [head, '{"na'], { waitMs: timeouts.requestSeconds * 1000 + slack });
    c.diagnostic(`stalled body: 408 and close after ${res.closedAfter} ms (requestSeconds ${timeouts.requestSeconds})`);
    assert.notEqual(res.closedAfter, undefined, 'the server closed the connection');
    assert.ok(
      res.closedAfter! >= timeouts.requestSeconds * 1000 - 200,
      `not before the timeout: ${res.closedAfter} ms`,
    );
    assert.equal(res.status, 408, res.received);
    assertTimeoutProblem(res);
    const users = await fetch(`${t.base}/api/v2/users`, { headers: { authorization: `Bearer ${testAdminKey}` } });
    assert.deepEqual(((await users.json()) as { data: unknown[] }).data, [], 'nothing was created');
  });

  it('cut off headers that never end with 408 and close the socket', async (c) => {
    const res = await rawExchange(t, ['GET /api/v2/users HTTP/1.1\r\nHost: x\r\nX-Slow: a'], {
      waitMs: timeouts.headersSeconds * 1000 + slack,
    });
    c.diagnostic(
      `partial headers: 408 and close after ${res.closedAfter} ms (headersSeconds ${timeouts.headersSeconds})`,
    );
    assert.notEqual(res.closedAfter, undefined, 'the server closed the connection');
    assert.ok(
      res.closedAfter! >= timeouts.headersSeconds * 1000 - 200,
      `not before the timeout: ${res.closedAfter} ms`,
    );
    assert.ok(
      res.closedAfter! < timeouts.requestSeconds * 1000 + 1500,
      `the header bound, not the request bound: ${res.closedAfter} ms`,
    );
    assert.equal(res.status, 408, res.received);
    assertTimeoutProblem(res);
  });

  it('close an idle keep-alive connection after keepAliveSeconds', async () => {
    const res = await rawExchange(t, ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'], {
      waitMs: timeouts.keepAliveSeconds * 1000 + slack,
    });
    assert.equal(res.status, 200);
    assert.match(res.headers['keep-alive'] ?? '', /timeout=1\b/);
    assert.notEqual(res.closedAfter, undefined, 'the idle connection was closed');
  });
});

function assertTimeoutProblem(res: RawExchange): void {
  assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers.connection, 'close');
  assert.equal((JSON.parse(res.body) as { code: string }).code, 'REQUEST_TIMEOUT');
}

describe('timeout configuration', () => {
  it('defaults to what a public API would choose, on the server that listens', async () => {
    assert.deepEqual(defaultTimeouts, { headersSeconds: 10, requestSeconds: 30, keepAliveSeconds: 5, idleSeconds: 60 });
    const t = await startTestService();
    const res = await rawExchange(t, ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'], { waitMs: 300 });
    assert.equal(res.status, 200);
    assert.equal(res.headers['keep-alive'], 'timeout=5');
    await t.stop();
  });

  it('refuses bad values at start, listing every error', async () => {
    const bad = { timeouts: { requestSeconds: 0, headersSeconds: 5000, bogus: 1, keepAliveSeconds: 'x' } };
    await assert.rejects(
      createTestApp({ env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(bad) } }),
      (error: Error) => {
        for (const part of [
          'timeouts.requestSeconds',
          'timeouts.headersSeconds',
          'timeouts: unknown key "bogus"',
          'timeouts.keepAliveSeconds',
        ])
          assert.ok(error.message.includes(part), `${part} in ${error.message}`);
        return true;
      },
    );
  });
});
