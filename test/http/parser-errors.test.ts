import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblemShape } from '../support/assertions.ts';
import { rawExchange } from '../support/raw-socket.ts';
import { startTestService, type StartedService } from '../support/started-service.ts';
import { testAdminKey } from '../support/test-app.ts';

const auth = `Authorization: Bearer ${testAdminKey}\r\nContent-Type: application/json\r\n`;
const cases: Array<{ name: string; request: string; status: number; code: string; detail: RegExp }> = [
  {
    name: 'headers over 64 KiB',
    request: `GET /api/v2/users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    detail: /larger than the limit/,
  },
  {
    name: 'a chunk size that is not hexadecimal',
    request: `POST /api/v2/users HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    status: 400,
    code: 'MALFORMED_REQUEST',
    detail: /chunked body is malformed/,
  },
  {
    name: 'Transfer-Encoding with Content-Length',
    request: `POST /api/v2/users HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    status: 400,
    code: 'MALFORMED_REQUEST',
    detail: /never beside Transfer-Encoding/,
  },
  {
    name: 'two different Content-Lengths',
    request: `POST /api/v2/users HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    status: 400,
    code: 'MALFORMED_REQUEST',
    detail: /must appear once/,
  },
  {
    name: 'two equal Content-Lengths',
    request: `POST /api/v2/users HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}`,
    status: 400,
    code: 'MALFORMED_REQUEST',
    detail: /must appear once/,
  },
  {
    name: 'a Transfer-Encoding other than chunked',
    request: `POST /api/v2/users HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: gzip\r\n\r\n`,
    status: 400,
    code: 'MALFORMED_REQUEST',
    detail: /Transfer-Encoding/,
  },
  {
    name: 'a request line that is not HTTP',
    request: 'HELLO\r\n\r\n',
    status: 400,
    code: 'MALFORMED_REQUEST',
    detail: /method is not valid/,
  },
  {
    name: 'an unknown HTTP version',
    request: 'GET / HTTP/9.9\r\n\r\n',
    status: 400,
    code: 'MALFORMED_REQUEST',
    detail: /HTTP version/,
  },
  {
    name: 'a control character in a header',
    request: 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n',
    status: 400,
    code: 'MALFORMED_REQUEST',
    detail: /./,
  },
];

// Through the real composition: the server that listens is startService's, not Fastify's own.
describe('parser-level errors over a raw socket', () => {
  let t: StartedService;
  before(async () => {
    t = await startTestService({ file: { timeouts: { headersSeconds: 1, requestSeconds: 2 } } });
  });
  after(() => t.stop());

  for (const c of cases) {
    it(`answer ${c.name} with a ${c.status} problem and close`, async () => {
      const res = await rawExchange(t, [c.request], { waitMs: 5000 });
      assert.equal(res.status, c.status, res.received.slice(0, 300));
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers.connection, 'close');
      assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
      const body = JSON.parse(res.body) as { code: string; detail: string };
      assertProblemShape(body, c.status);
      assert.equal(body.code, c.code);
      assert.match(body.detail, c.detail);
      assert.notEqual(res.closedAfter, undefined, 'the connection is closed');
    });
  }

  it('answer a stalled body with a 408 problem', async () => {
    const res = await rawExchange(
      t,
      [`POST /api/v2/users HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 100\r\n\r\n{"na`],
      { waitMs: 10_000 },
    );
    assert.equal(res.status, 408, res.received);
    const body = JSON.parse(res.body) as { code: string };
    assertProblemShape(body, 408);
    assert.equal(body.code, 'REQUEST_TIMEOUT');
    assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });
});
