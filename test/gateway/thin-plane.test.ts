import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  declareTransportPaths,
  gatewayAdminKey,
  startPythonUpstream,
  spawnGateway,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

// The thin data plane serves a forwarded version's documented GET and HEAD calls; with
// `trustProxy` set, Fastify serves every call (the address is then Fastify's to read). With the
// proxy trusted being this very client and no `X-Forwarded-For` sent, both read the same address:
// the same call must get the same answer from both, header for header.
const file = {
  versions: { v1: { deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: '2099-01-01T00:00:00Z', replacement: 'v2' } },
  rateLimit: { max: 1000, windowSeconds: 600 },
};

/** The Python upstream's transport paths and its streamed `/big`, declared in each version's document. */
function editDocument(version: string, document: Record<string, unknown>): void {
  declareTransportPaths(version, document);
  const paths = document.paths as Record<string, unknown>;
  paths[`/api/${version}/big`] = {
    get: { operationId: `big${version}`, responses: { '200': { description: 'bytes' } } },
  };
}

/** An answer as a client compares it: status, headers but the date and a random request id, and body. */
async function answerOf(response: Response): Promise<string> {
  const headers = [...response.headers.entries()]
    .filter(([name]) => name !== 'date')
    .map(([name, value]) => `${name}: ${name === 'x-request-id' && value.length === 36 ? '<uuid>' : value}`)
    .sort();
  const body = (await response.text()).replace(/"requestId":"[0-9a-f-]{36}"/, '"requestId":"<uuid>"');
  return [response.status, ...headers, body].join('\n');
}

describe('the thin data plane answers as Fastify does (versionary gateway in process)', () => {
  let python: PythonUpstream;
  let thin: TestGateway;
  let fastify: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    thin = await startTestGateway({ upstream: python.url, file, editDocument });
    fastify = await startTestGateway({
      upstream: python.url,
      file,
      editDocument,
      env: { VERSIONARY_TRUST_PROXY: '127.0.0.1' },
    });
  });
  after(async () => {
    await thin.stop();
    await fastify.stop();
    await python.stop();
  });

  const admin = { authorization: `Bearer ${gatewayAdminKey}` };
  const calls: Array<[string, string, Record<string, string>]> = [
    ['GET', '/api/v2/users/1', admin],
    ['GET', '/api/v1/users/1', admin],
    ['HEAD', '/api/v2/users/1', admin],
    ['GET', '/api/v2/users/7', admin],
    ['GET', '/api/v2/users', { ...admin, 'x-request-id': 'trace-1' }],
    ['GET', '/api/v2/users/1?fields=firstName', admin],
    ['GET', '/api/v2/users/1', {}],
    ['GET', '/api/v1/users/1', {}],
    ['GET', '/api/v2/users/1', { authorization: 'Bearer vk_0000000000000000.' + 'A'.repeat(43) }],
    ['GET', '/api/v2/users/1', { ...admin, accept: 'application/vnd.acme.v1+json' }],
    ['GET', '/api/v2/users/1', { ...admin, accept: 'text/html' }],
    ['GET', '/api/v2/users/1', { ...admin, 'if-none-match': 'x'.repeat(4001) }],
    ['GET', '/api/v2/cookies', { ...admin, 'if-none-match': '"up-1"' }],
    ['GET', '/api/v2/hop', admin],
    ['POST', '/api/v2/empty', admin],
    ['GET', '/api/v2/nowhere', admin],
    ['DELETE', '/api/v2/users/1', admin],
  ];
  for (const [method, path, headers] of calls)
    it(`${method} ${path} ${Object.keys(headers).join(', ') || 'without credentials'}`, async () => {
      const [a, b] = await Promise.all([thin, fastify].map((g) => fetch(g.base + path, { method, headers })));
      assert.equal(await answerOf(a!), await answerOf(b!));
    });

  it('a streamed answer arrives whole', async () => {
    const [a, b] = await Promise.all(
      [thin, fastify].map((g) => fetch(`${g.base}/api/v2/big?mb=3`, { headers: admin }).then((r) => r.arrayBuffer())),
    );
    assert.equal(a!.byteLength, 3 * 1024 * 1024);
    assert.deepEqual(Buffer.from(a!), Buffer.from(b!));
  });
});

/** Each version's `/echo` (the Python upstream's: the request it received, the body's length and SHA-256) for every write method. */
function echoWrites(version: string, document: Record<string, unknown>): void {
  editDocument(version, document);
  const paths = document.paths as Record<string, Record<string, unknown>>;
  const echo = paths[`/api/${version}/echo`]!;
  for (const method of ['put', 'patch', 'delete'])
    echo[method] = {
      operationId: `echo${method}${version}`,
      requestBody: { content: { 'application/octet-stream': {} } },
      responses: { '200': { description: 'the request as received' } },
    };
}

/**
 * The echo of a write as a client compares it: the gateway's own port, the request id and the
 * seconds left in the rate window (the two processes' windows opened apart) made alike.
 */
async function echoOf(response: Response, base: string): Promise<string> {
  return (await answerOf(response))
    .replaceAll(new URL(base).host, '<gateway>')
    .replace(/^(ratelimit: .*;t=)\d+$/m, '$1<t>')
    .replace(/"x-request-id": "[0-9a-f-]{36}"/, '"x-request-id": "<uuid>"');
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('writes on the thin data plane answer as Fastify does (versionary gateway as a process)', () => {
  let python: PythonUpstream;
  let thin: TestGateway;
  let fastify: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    [thin, fastify] = await Promise.all([
      spawnGateway({ upstream: python.url, file, editDocument: echoWrites }),
      spawnGateway({
        upstream: python.url,
        file,
        editDocument: echoWrites,
        env: { VERSIONARY_TRUST_PROXY: '127.0.0.1' },
      }),
    ]);
  });
  after(async () => {
    await Promise.all([thin?.stop(), fastify?.stop()]);
    await python?.stop();
  });

  const admin = { authorization: `Bearer ${gatewayAdminKey}` };
  const json = { ...admin, 'content-type': 'application/json' };
  const body = JSON.stringify({ name: 'Ada', note: 'é✓' });
  const calls: Array<[string, string, Record<string, string>, string | Uint8Array<ArrayBuffer> | undefined]> = [
    ['POST', '/api/v2/echo', json, body],
    ['PUT', '/api/v2/echo', json, body],
    ['PATCH', '/api/v1/echo', { ...admin, 'content-type': 'application/merge-patch+json; charset=utf-8' }, body],
    ['DELETE', '/api/v2/echo', admin, undefined],
    ['DELETE', '/api/v2/echo', json, body],
    // A string body is sent as text/plain; bytes with no Content-Type at all.
    ['POST', '/api/v2/echo', admin, body],
    ['POST', '/api/v2/echo', admin, new TextEncoder().encode(body)],
    ['POST', '/api/v2/echo', admin, undefined],
    ['POST', '/api/v2/echo', { ...json, 'content-length': '0' }, ''],
    ['POST', '/api/v2/empty', { ...admin, 'content-type': 'application/octet-stream' }, 'x'],
    // Refused before anything goes upstream, each as the same problem: no credential, a
    // `Content-Type` that is none (Fastify's 415), an encoded body, another version's `Accept`, a
    // method the path does not declare, a path no document declares.
    ['POST', '/api/v2/echo', { 'content-type': 'application/json' }, body],
    ['POST', '/api/v2/echo', { ...admin, 'content-type': 'json' }, body],
    ['POST', '/api/v2/echo', { ...admin, 'content-type': 'application/json extra' }, body],
    ['POST', '/api/v2/echo', { ...admin, 'content-type': ' text/plain' }, body],
    ['POST', '/api/v2/echo', { ...json, 'content-encoding': 'gzip' }, body],
    ['PUT', '/api/v2/echo', { ...json, accept: 'application/vnd.acme.v1+json' }, body],
    ['POST', '/api/v2/users/1', json, body],
    ['POST', '/api/v2/nowhere', json, body],
  ];
  for (const [method, path, headers, sent] of calls)
    it(`${method} ${path} ${JSON.stringify(headers).replace(gatewayAdminKey, 'admin')} ${sent === undefined ? 'no body' : `${sent.length} bytes`}`, async () => {
      const [a, b] = await Promise.all(
        [thin, fastify].map(async (g) => echoOf(await fetch(g.base + path, { method, headers, body: sent }), g.base)),
      );
      assert.equal(a, b);
    });

  it('a body reaches the upstream byte for byte, whatever its bytes', async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256);
    const response = await fetch(`${thin.base}/api/v2/echo`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    assert.equal(response.status, 200);
    const echo = (await response.json()) as {
      method: string;
      bodyLength: number;
      bodySha256: string;
      headers: Record<string, string>;
    };
    assert.equal(echo.method, 'POST');
    assert.equal(echo.bodyLength, bytes.length);
    assert.equal(echo.bodySha256, sha256(bytes));
    assert.equal(echo.headers['content-length'], String(bytes.length));
  });

  it('a body larger than the gateway would ever read itself streams through whole, chunked', async () => {
    // 24 MiB in 64 KiB pieces, far past the 1 MiB `bodyLimit` of what the gateway reads itself.
    const piece = new Uint8Array(64 * 1024).map((_, i) => i % 251);
    const count = 384;
    const hash = createHash('sha256');
    for (let i = 0; i < count; i++) hash.update(piece);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === count) controller.close();
        else controller.enqueue(piece);
      },
    });
    const response = await fetch(`${thin.base}/api/v2/echo`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'application/octet-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 200);
    const echo = (await response.json()) as { bodyLength: number; bodySha256: string; headers: Record<string, string> };
    assert.equal(echo.bodyLength, count * piece.length);
    assert.equal(echo.bodySha256, hash.digest('hex'));
    assert.equal(echo.headers['transfer-encoding'], 'chunked');
  });

  it('a client that leaves mid-upload costs the gateway nothing: the next write goes through', async () => {
    const { host, port } = new URL(thin.base);
    const socket = connect(Number(port), host.split(':')[0]!);
    await once(socket, 'connect');
    socket.write(
      `POST /api/v2/echo HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${gatewayAdminKey}\r\n` +
        'content-type: application/octet-stream\r\ncontent-length: 1048576\r\n\r\n' +
        'x'.repeat(4096),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    const response = await fetch(`${thin.base}/api/v2/echo`, { method: 'POST', headers: json, body });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { bodyLength: number }).bodyLength, Buffer.byteLength(body));
  });

  it("an Idempotency-Key is the upstream's: each retry is forwarded, none replayed", async () => {
    const before = (await python.received()).length;
    const headers = { ...json, 'idempotency-key': 'order-42' };
    const answers = [];
    for (let i = 0; i < 2; i++)
      answers.push(await fetch(`${thin.base}/api/v2/echo`, { method: 'POST', headers, body }));
    for (const response of answers) {
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('idempotent-replayed'), null);
      const echo = (await response.json()) as { headers: Record<string, string> };
      assert.equal(echo.headers['idempotency-key'], 'order-42');
    }
    assert.equal((await python.received()).length - before, 2);
  });
});
