import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  declareTransportPaths,
  spawnGateway,
  startPythonUpstream,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

/** What a client uploading a large body saw: the answer, or the error that cut it. */
interface Upload {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  error?: string;
}

/**
 * POST `bytes` of body over a raw socket in 64 KiB pieces (with a `Content-Length`, or chunked),
 * each written once the last has left, and read the answer when the connection closes (the
 * request says `Connection: close`). An error on the socket (a reset, EPIPE) is what the client
 * saw instead of the answer.
 */
function rawUpload(
  port: number,
  path: string,
  { bytes, chunked = false }: { bytes: number; chunked?: boolean },
): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    let failure: string | undefined;
    socket.on('data', (chunk: Buffer) => parts.push(chunk));
    socket.on('error', (error: Error & { code?: string }) => (failure ??= error.code ?? error.message));
    socket.on('close', () => resolve(failure ? { error: failure } : parse(Buffer.concat(parts).toString('latin1'))));
    const piece = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const next = () => {
      if (socket.destroyed || sent > bytes) return;
      if (sent === bytes) {
        sent++;
        if (chunked) socket.write('0\r\n\r\n');
        return;
      }
      sent += piece.length;
      if (chunked) socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(chunked ? Buffer.concat([piece, Buffer.from('\r\n')]) : piece, () => setImmediate(next));
    };
    socket.once('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${gatewayAdminKey}\r\n` +
          `Content-Type: application/octet-stream\r\n${chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bytes}`}\r\n` +
          'Connection: close\r\n\r\n',
      );
      next();
    });
    setTimeout(() => socket.destroy(new Error('no answer in 20 s')), 20_000).unref();
  });
}

function parse(received: string): Upload {
  const at = received.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = received.slice(0, at).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]), headers, body: received.slice(at + 4) };
}

// Python's http.client writes the whole body before it reads the answer.
const python = `
import http.client, json, sys
port, path, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
body = b'x' * (8 * 1024 * 1024)
c = http.client.HTTPConnection('127.0.0.1', port, timeout=20)
try:
    c.request('POST', path, body=body, headers={'authorization': 'Bearer ' + key, 'content-type': 'application/octet-stream'})
    r = c.getresponse()
    print(json.dumps({'status': r.status, 'headers': {k.lower(): v for k, v in r.getheaders()}, 'body': r.read().decode()}))
except Exception as e:
    print(json.dumps({'error': type(e).__name__ + ': ' + str(e)}))
`;

function pythonUpload(port: number, path: string): Promise<Upload> {
  return new Promise((resolve, reject) =>
    execFile('python3', ['-c', python, String(port), path, gatewayAdminKey], { timeout: 30_000 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as Upload),
    ),
  );
}

describe('gateway: an upstream that answers before it reads the body (versionary gateway as a process)', () => {
  let upstream: PythonUpstream;
  let gateway: TestGateway;
  let port: number;
  before(async () => {
    upstream = await startPythonUpstream();
    gateway = await spawnGateway({ upstream: upstream.url, editDocument: declareTransportPaths });
    port = Number(new URL(gateway.base).port);
  });
  after(async () => {
    await gateway.stop();
    await upstream.stop();
  });

  const clients: Array<[string, (port: number, path: string) => Promise<Upload>]> = [
    ['a raw socket writing 6 MiB in pieces', (p, path) => rawUpload(p, path, { bytes: 6 * 1024 * 1024 })],
    [
      'a raw socket writing 6 MiB in chunks',
      (p, path) => rawUpload(p, path, { bytes: 6 * 1024 * 1024, chunked: true }),
    ],
    ["Python's http.client writing 8 MiB", pythonUpload],
  ];
  for (const then of ['close', 'drain'])
    for (const status of [413, 401])
      for (const [name, upload] of clients)
        it(`${status}, then the upstream ${then === 'close' ? 'closes with the body unread' : 'reads the body and closes'}: ${name} reads the upstream's answer`, async () => {
          // Three times: whether the answer beats the upload is a race, and each run may lose it.
          for (let i = 0; i < 3; i++) {
            const res = await upload(port, `/api/v2/early?status=${status}&then=${then}`);
            assert.equal(res.status, status, JSON.stringify(res));
            assert.deepEqual(JSON.parse(res.body!), { error: 'refused early', status }, JSON.stringify(res));
            assert.equal(res.headers!['content-type'], 'application/json');
          }
        });

  for (const [name, upload] of clients)
    it(`an upstream that closes without an answer: ${name} reads a 502 problem, not a reset`, async () => {
      const res = await upload(port, '/api/v2/early?status=0');
      assert.equal(res.status, 502, JSON.stringify(res));
      assert.equal(JSON.parse(res.body!).code, 'UPSTREAM_UNREACHABLE');
    });
});
