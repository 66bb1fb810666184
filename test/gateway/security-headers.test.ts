import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  declareTransportPaths,
  spawnGateway,
  startPythonUpstream,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';
import { rawExchange } from '../support/raw-socket.ts';

const run = promisify(execFile);
const auth = `Authorization: Bearer ${gatewayAdminKey}\r\n`;

describe('gateway security: headers and framing (versionary gateway as a process)', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  let port: number;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await spawnGateway({ upstream: python.url, editDocument: declareTransportPaths });
    port = Number(new URL(gateway.base).port);
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });
  const raw = (text: string) => rawExchange({ port }, [text], { waitMs: 5000 });

  it('answers Expect: 100-continue itself: a 2 MB curl upload reaches the upstream whole', async () => {
    const file = join(gateway.dir, 'upload.bin');
    writeFileSync(file, Buffer.alloc(2_000_000, 7));
    const { stdout } = await run('curl', [
      '-sS',
      '-H',
      `Authorization: Bearer ${gatewayAdminKey}`,
      '-H',
      'Content-Type: application/octet-stream',
      '-H',
      'Expect: 100-continue',
      '--data-binary',
      `@${file}`,
      '-w',
      '\n%{http_code}',
      `${gateway.base}/api/v2/echo`,
    ]);
    const [body = '', status] = stdout.split('\n');
    assert.equal(status, '200', body);
    const echo = JSON.parse(body) as { bodyLength: number; headers: Record<string, string> };
    assert.equal(echo.bodyLength, 2_000_000);
    assert.equal(echo.headers.expect, undefined, 'Expect is not forwarded');
  });

  it('drops request headers with an underscore: no twin of the client header reaches the upstream', async () => {
    const res = await raw(
      `GET /api/v2/echo HTTP/1.1\r\nHost: gw\r\n${auth}X_Versionary_Client: cl_beta\r\nX_Other: 1\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(res.status, 200, res.received.slice(0, 300));
    const headers = (JSON.parse(res.body) as { headers: Record<string, string> }).headers;
    assert.deepEqual(
      Object.keys(headers).filter((name) => name.includes('_')),
      [],
    );
    assert.notEqual(headers['x-versionary-client'], 'cl_beta');
  });

  it('drops path and method overrides: the upstream routes on what the gateway judged', async () => {
    const res = await raw(
      `GET /api/v2/echo HTTP/1.1\r\nHost: gw\r\n${auth}X-Original-URL: /api/v1/echo\r\nX-Rewrite-URL: /internal\r\nX-HTTP-Method-Override: DELETE\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(res.status, 200, res.received.slice(0, 300));
    const headers = (JSON.parse(res.body) as { headers: Record<string, string> }).headers;
    for (const name of ['x-original-url', 'x-rewrite-url', 'x-http-method-override'])
      assert.equal(headers[name], undefined, `${name} is not forwarded`);
  });

  it('removes hop-by-hop headers both ways, and those Connection names', async () => {
    const request = await raw(
      `GET /api/v2/echo HTTP/1.1\r\nHost: gw\r\n${auth}Connection: close, X-Hop\r\nX-Hop: secret\r\nKeep-Alive: timeout=5\r\n\r\n`,
    );
    const forwarded = (JSON.parse(request.body) as { headers: Record<string, string> }).headers;
    assert.equal(forwarded['x-hop'], undefined);
    assert.equal(forwarded['keep-alive'], undefined);
    const response = await raw(`GET /api/v2/hop HTTP/1.1\r\nHost: gw\r\n${auth}Connection: close\r\n\r\n`);
    assert.equal(response.status, 200, response.received.slice(0, 300));
    assert.equal(response.headers['x-hop'], undefined, response.received.slice(0, 600));
    assert.equal(response.headers['keep-alive'], undefined);
  });

  it('refuses ambiguous framing as nginx does: a repeated Host, Transfer-Encoding on HTTP/1.0, an unknown coding', async () => {
    const before = (await python.received()).length;
    for (const text of [
      `GET /api/v2/echo HTTP/1.1\r\nHost: gw\r\nHost: evil\r\n${auth}Connection: close\r\n\r\n`,
      `POST /api/v2/echo HTTP/1.0\r\nHost: gw\r\n${auth}Transfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n`,
      `POST /api/v2/echo HTTP/1.1\r\nHost: gw\r\n${auth}Transfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n1\r\na\r\n0\r\n\r\n`,
    ]) {
      const res = await raw(text);
      assert.ok(res.status === 400 || res.status === 501, `${JSON.stringify(text)} → ${res.received.slice(0, 300)}`);
      assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
    }
    assert.equal((await python.received()).length, before, 'none of them reached the upstream');
  });
});
