import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';
import { rawExchange } from '../support/raw-socket.ts';

const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'] as const;
const segment = fc.oneof(
  fc.constantFrom(
    'users',
    '1',
    '2',
    'echo',
    'big',
    'openapi.json',
    'v1',
    'v2',
    'v0',
    'v99',
    '..',
    '.',
    '',
    '%2e%2e',
    '%2F',
    '%00',
    '%ZZ',
    '%E2%82%AC',
    '{id}',
    ':id',
    '*',
    '~',
    'a;b',
    '\\..',
    'x\\..\\..\\v1',
    '%5c..%5c',
    '%2e',
    '.%2E',
    'users%2f1',
    'x'.repeat(300),
  ),
  fc.stringMatching(/^[A-Za-z0-9._~%-]{0,12}$/),
);
const path = fc
  .array(segment, { maxLength: 5 })
  .chain((rest) =>
    fc
      .constantFrom('/api/v1/', '/api/v2/', '/api/', '/api/v7/', '/', '/admin/v1/', '/docs/')
      .map((base) => base + rest.join('/')),
  );
const query = fc.oneof(fc.constant(''), fc.stringMatching(/^\?[A-Za-z0-9=&%._-]{0,30}$/));
const accept = fc.constantFrom(
  undefined,
  'application/json',
  'application/vnd.acme.v1+json',
  'application/vnd.acme.v2+json',
  'application/json; version=1',
  'application/vnd.acme.v9+json',
  'application/vnd.acme.v1+json, application/vnd.acme.v2+json',
  'text/html',
  '*/*;q=x',
  ';;;',
);
const auth = fc.constantFrom(`Bearer ${gatewayAdminKey}`, undefined, 'Bearer vk_nope.nope', 'Basic eDp5', 'Bearer ');
const body = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 200 }),
  fc.constant('{"a":'),
  fc.constant('{"__proto__":{"x":1}}'),
);

/** Send one raw request (node:http keeps odd paths and methods as they are); resolve with status, type and body. */
function send(options: {
  base: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(options.base + options.url, { method: options.method, headers: options.headers }, (res) => {
      let text = '';
      res.on('data', (d) => {
        text += String(d);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('property: no request makes the gateway fail', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({
      upstream: python.url,
      file: { rateLimit: { max: 1_000_000, windowSeconds: 60 } },
    });
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });

  it('answers every generated request: never a 5xx of its own, never a reset, its errors as problems', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          method: fc.constantFrom(...methods),
          url: fc.tuple(path, query).map(([p, q]) => p + q),
          accept,
          auth,
          body,
        }),
        async (c) => {
          const headers: Record<string, string> = {};
          if (c.accept !== undefined) headers.accept = c.accept;
          if (c.auth !== undefined) headers.authorization = c.auth;
          const withBody = c.body !== undefined && c.method !== 'GET' && c.method !== 'HEAD';
          if (c.body !== undefined) headers['content-type'] = 'application/json';
          // Framed by its length: node:http sends a DELETE or OPTIONS body unframed, and the server
          // would rightly read it as a second, malformed request.
          if (withBody) headers['content-length'] = String(Buffer.byteLength(c.body!));
          const res = await send({
            base: gateway.base,
            method: c.method,
            url: c.url,
            headers,
            ...(withBody ? { body: c.body } : {}),
          });
          const label = `${c.method} ${c.url} ${JSON.stringify(headers)} → ${res.status} ${res.text.slice(0, 200)}`;
          // The Python upstream's own answers pass through as they are; the gateway's are problems.
          const fromGateway = res.type.startsWith('application/problem+json');
          assert.ok(
            res.status < 500 || (res.status !== 500 && !fromGateway) || [502, 504].includes(res.status),
            `5xx: ${label}`,
          );
          if (
            res.status >= 400 &&
            !res.type.startsWith('application/json') &&
            !res.type.startsWith('text/html') &&
            c.method !== 'HEAD'
          )
            assert.ok(fromGateway, `not a problem: ${label}`);
        },
      ),
      { numRuns: Number(process.env.VERSIONARY_PROPERTY_RUNS ?? 300) },
    );
    // What the upstream received: only canonical paths under the prefix, on a version it serves.
    const escaped = (await python.received()).filter(
      (p) => !/^\/api\/v[12](\/|\?|$)/.test(p) || /\\|%2f|%5c|;|\/\/|\/(\.|%2e){1,2}(\/|\?|$)/i.test(p),
    );
    assert.deepEqual(escaped, []);
  });
});

// Each generated request is a canonical one (a path on the live v2 or the removed v1, a method, a
// body) written another way: its path spelled with dot segments, slashes, encodings or in absolute
// form; headers the upstream must not see or be misled by; another framing. It must get either a
// 4xx problem or the canonical request's answer; the upstream must only ever see canonical paths.
// Echo paths only: the upstream reads their bodies, so its keep-alive connections stay in step.
const canonicalPaths = ['/api/v2/echo', '/api/v1/echo'] as const;
const spellings: Array<(p: string) => string> = [
  (p) => p,
  (p) => p.replace('/api/', '/api/./'),
  (p) => p.replace(/\/(v\d)\//, '/$1/x/../'),
  (p) => p.replace(/\/(v\d)\//, '/$1/x/%2e%2e/'),
  (p) => p.replace(/\/v(\d)\//, (_, n) => `/v${n === '1' ? '2' : '1'}/../v${n}/`),
  (p) => p.replace('/api/', '/api//'),
  (p) => p.replace('/api/', '/api\\'),
  (p) => p.replace('/api/', '/api%2F'),
  (p) => p.replace('/api/', '/api%5c'),
  (p) => p.replace(/\/(v\d)\//, '/$1;x=1/'),
  (p) => `http://127.0.0.1${p}`,
  (p) => `${p}?next=/../v1/echo`,
  (p) => `${p}/.`,
];
const headerVariants: string[][] = [
  [],
  ['X_Versionary_Client: spoofed'],
  ['x_versionary_client: spoofed', 'X-Versionary-Client: spoofed-too'],
  ['Connection: close, x-versionary-client'],
  ['Connection: close, authorization'],
  ['Connection: close, host'],
  ['Host: evil.example'],
  ['X-Forwarded-Host: evil.example', 'X-Original-URL: /api/v1/echo', 'X-Rewrite-URL: /api/v1/echo'],
];
type Framing = 'length' | 'chunked' | 'expect' | 'te-chunked-1.0' | 'te-gzip' | 'te-upper' | 'te-and-length';
const framings: Framing[] = ['length', 'chunked', 'expect', 'te-chunked-1.0', 'te-gzip', 'te-upper', 'te-and-length'];

interface Answer {
  status: number | undefined;
  type: string;
  body: string;
}

function rawRequest(
  target: string,
  options: { method: string; body: string; framing: Framing; headers: string[]; host?: string },
): string {
  const { method, body, framing } = options;
  const version = framing === 'te-chunked-1.0' ? 'HTTP/1.0' : 'HTTP/1.1';
  const head = [
    `${method} ${target} ${version}`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${gatewayAdminKey}`,
    'Content-Type: application/json',
    ...(options.headers.some((h) => /^connection:/i.test(h)) ? [] : ['Connection: close']),
    ...options.headers,
  ];
  const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  if (framing === 'length' || framing === 'expect') {
    head.push(`Content-Length: ${body.length}`);
    if (framing === 'expect') head.push('Expect: 100-continue');
    return `${head.join('\r\n')}\r\n\r\n${body}`;
  }
  const coding = { chunked: 'chunked', 'te-chunked-1.0': 'chunked', 'te-gzip': 'gzip, chunked', 'te-upper': 'CHUNKED' }[
    framing as string
  ];
  head.push(`Transfer-Encoding: ${coding ?? 'chunked'}`);
  if (framing === 'te-and-length') head.push(`Content-Length: ${body.length}`);
  return `${head.join('\r\n')}\r\n\r\n${chunked}`;
}

/** Status, type and body of the final answer (after any 100 Continue), de-chunked. */
function finalAnswer(received: string): Answer {
  const text = received.replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '');
  const at = text.indexOf('\r\n\r\n');
  const head = at === -1 ? text : text.slice(0, at);
  let body = at === -1 ? '' : text.slice(at + 4);
  const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
  const type = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '';
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    let out = '';
    for (;;) {
      const line = body.indexOf('\r\n');
      const size = Number.parseInt(body.slice(0, line), 16);
      if (!size) break;
      out += body.slice(line + 2, line + 2 + size);
      body = body.slice(line + 4 + size);
    }
    body = out;
  }
  return { status: status ? Number(status) : undefined, type, body };
}

describe('property: paths, headers and framing give a 4xx problem or the canonical answer', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  let port: number;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({
      upstream: python.url,
      file: { rateLimit: { max: 1_000_000, windowSeconds: 60 }, versions: { v1: { removed: true }, v2: {} } },
    });
    port = Number(new URL(gateway.base).port);
  });
  after(async () => {
    await gateway.stop();
    await python.stop();
  });
  const send = async (raw: string) => finalAnswer((await rawExchange({ port }, [raw], { waitMs: 5000 })).received);

  it('every spelling is refused as a problem or answered as the canonical request is', async () => {
    const canonical = new Map<string, Answer>();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          path: fc.constantFrom(...canonicalPaths),
          spelling: fc.integer({ min: 0, max: spellings.length - 1 }),
          headers: fc.constantFrom(...headerVariants),
          framing: fc.constantFrom(...framings),
          method: fc.constantFrom('POST', 'PUT'),
          body: fc.constantFrom('{}', '{"a":1}', 'x'.repeat(3000)),
        }),
        async (c) => {
          const key = `${c.method} ${c.path} ${c.body.length}`;
          if (!canonical.has(key))
            canonical.set(
              key,
              await send(rawRequest(c.path, { method: c.method, body: c.body, framing: 'length', headers: [] })),
            );
          const expected = canonical.get(key)!;
          const target = spellings[c.spelling]!(c.path);
          const res = await send(rawRequest(target, c));
          const label = `${c.method} ${target} ${JSON.stringify(c.headers)} ${c.framing} → ${res.status} ${res.body.slice(0, 200)} (canonical ${expected.status})`;
          assert.ok(res.status !== undefined, `no answer: ${label}`);
          if (res.status !== expected.status) {
            assert.ok(res.status >= 400 && res.status < 500, `neither a 4xx nor the canonical answer: ${label}`);
            assert.match(res.type, /^application\/problem\+json/, `a 4xx that is not a problem: ${label}`);
            return;
          }
          if (res.status < 200 || res.status >= 300) return;
          const got = JSON.parse(res.body) as { path: string; bodyLength: number; headers: Record<string, string> };
          const want = JSON.parse(expected.body) as typeof got;
          assert.equal(got.path.split('?')[0], want.path, label);
          assert.equal(got.bodyLength, want.bodyLength, label);
          assert.equal(got.headers['x-versionary-client'], want.headers['x-versionary-client'], label);
          assert.deepEqual(
            Object.keys(got.headers).filter((h) => h.includes('_')),
            Object.keys(want.headers).filter((h) => h.includes('_')),
            label,
          );
        },
      ),
      { numRuns: Number(process.env.VERSIONARY_PROPERTY_RUNS ?? 100) },
    );
    // Only the canonical paths themselves (every spelling means one of them), and none on the removed v1.
    const escaped = (await python.received()).filter((p) => p.split('?')[0] !== '/api/v2/echo');
    assert.deepEqual(escaped, []);
  });
});
