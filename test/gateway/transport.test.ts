import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/service-process.ts';
import {
  gatewayAdminKey,
  declareTransportPaths,
  spawnGateway,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';

const auth = { authorization: `Bearer ${gatewayAdminKey}` };
type Echo = { method: string; path: string; headers: Record<string, string>; bodyLength: number; bodySha256: string };

describe('gateway: transport', () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  let deadGateway: TestGateway;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({
      upstream: python.url,
      gateway: { timeoutMs: 300 },
      editDocument: declareTransportPaths,
    });
    deadGateway = await startTestGateway({ upstream: `http://127.0.0.1:${await freePort()}` });
  });
  after(async () => {
    await gateway.stop();
    await deadGateway.stop();
    await python.stop();
  });

  it('passes a small answer whole: both Set-Cookie fields, the upstream ETag and no tag of its own, HEAD and 204 without a body', async () => {
    const get = await fetch(`${gateway.base}/api/v2/cookies`, { headers: auth });
    assert.equal(get.status, 200);
    assert.deepEqual(get.headers.getSetCookie(), ['a=1; Path=/', 'b=2; Path=/']);
    assert.equal(get.headers.get('etag'), '"up-1"');
    assert.equal(get.headers.get('content-length'), '13');
    assert.equal(await get.text(), '{"cookies":2}');
    // The upstream's own validator answers a conditional GET.
    const again = await fetch(`${gateway.base}/api/v2/cookies`, { headers: { ...auth, 'if-none-match': '"up-1"' } });
    assert.equal(again.status, 304);
    // An answer without validators gets none of the gateway's: the bytes are the upstream's.
    const user = await fetch(`${gateway.base}/api/v2/users/1`, { headers: auth });
    assert.equal(user.status, 200);
    assert.equal(user.headers.get('etag'), null);
    const head = await new Promise<{ status: number; length?: string; bytes: number }>((resolve, reject) => {
      const req = request(`${gateway.base}/api/v2/cookies`, { method: 'HEAD', headers: auth }, (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.on('end', () => resolve({ status: res.statusCode!, length: res.headers['content-length'], bytes }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.deepEqual(head, { status: 200, length: '13', bytes: 0 });
    // POST: the method the document declares there (a DELETE is the 405 of core's method rule, never forwarded).
    const empty = await fetch(`${gateway.base}/api/v2/empty`, { method: 'POST', headers: auth });
    assert.equal(empty.status, 204);
    assert.equal(await empty.text(), '');
  });

  /** What the upstream received of a request with hop-by-hop headers, a spoofed client id and a forwarding chain. */
  const echoOf = (base: string) =>
    new Promise<Echo>((resolve, reject) => {
      // node:http, since fetch refuses to send Connection and the headers it names.
      const req = request(
        `${base}/api/v2/echo`,
        {
          headers: {
            ...auth,
            connection: 'keep-alive, x-secret',
            'x-secret': 'drop me',
            te: 'trailers',
            'proxy-authorization': 'Basic eA==',
            'x-versionary-client': 'spoofed',
            'x-forwarded-for': '203.0.113.9',
            forwarded: 'for=198.51.100.7',
            'x-custom': 'kept',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => {
            text += String(d);
          });
          res.on('end', () => resolve(JSON.parse(text) as Echo));
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('keeps the credential, drops hop-by-hop headers, says who asked (X-Forwarded-* by default), and names the client upstream', async () => {
    const h = (await echoOf(gateway.base)).headers;
    for (const name of ['authorization', 'x-secret', 'te', 'proxy-authorization'])
      assert.equal(h[name], undefined, name);
    assert.equal(h['x-custom'], 'kept');
    assert.equal(h['x-versionary-client'], 'admin', 'the caller as the gateway knows it, not what the client claimed');
    assert.equal(h['x-forwarded-for'], '203.0.113.9, 127.0.0.1');
    assert.equal(h['x-forwarded-proto'], 'http');
    assert.equal(h['x-forwarded-host'], new URL(gateway.base).host);
    assert.equal(h.forwarded, undefined, "the default sends no Forwarded, and never passes on the client's");
  });

  it('sends Forwarded (RFC 7239) with forwardedHeaders "both" or "forwarded", the chain extended', async () => {
    for (const mode of ['both', 'forwarded'] as const) {
      const other = await startTestGateway({ upstream: python.url, gateway: { forwardedHeaders: mode } });
      try {
        const h = (await echoOf(other.base)).headers;
        assert.match(h.forwarded ?? '', /^for=198\.51\.100\.7, for=127\.0\.0\.1;proto=http;host="127\.0\.0\.1:\d+"$/);
        assert.equal(h['x-forwarded-for'], mode === 'both' ? '203.0.113.9, 127.0.0.1' : undefined, mode);
        assert.equal(h['x-forwarded-proto'], mode === 'both' ? 'http' : undefined, mode);
        assert.equal(h['x-forwarded-host'], mode === 'both' ? new URL(other.base).host : undefined, mode);
        assert.equal(h['x-versionary-client'], 'admin');
      } finally {
        await other.stop();
      }
    }
  });

  it('streams a 50 MiB response to a slow reader with bounded memory (versionary gateway as its own process)', async () => {
    const spawned = await spawnGateway({ upstream: python.url });
    try {
      const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${spawned.pid}/status`, 'utf8'))?.[1]) * 1024;
      // Warmed up first: the first request compiles and allocates what every later one reuses.
      await (await fetch(`${spawned.base}/api/v1/big?mb=2`, { headers: auth })).arrayBuffer();
      const baseline = rss();
      let peak = baseline;
      // node:http, paused for real: fetch's body stream reads ahead into the test's own memory, so
      // the gateway would never feel the back-pressure this test is about.
      const digest = createHash('sha256');
      let bytes = 0;
      let aheadOfReader = -1;
      await new Promise<void>((resolve, reject) => {
        const req = request(`${spawned.base}/api/v1/big?mb=50`, { headers: auth }, (res) => {
          assert.equal(res.statusCode, 200);
          let paused = false;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            digest.update(chunk);
            // Stop reading for a while once: a proxy that buffered would take the whole body in meanwhile.
            if (!paused && bytes > 1024 * 1024) {
              paused = true;
              res.pause();
              void (async () => {
                for (let i = 0; i < 10; i++) {
                  await new Promise((r) => setTimeout(r, 100));
                  peak = Math.max(peak, rss());
                }
                const { sent } = (await (await fetch(`${python.url}/api/v1/big/sent`)).json()) as { sent: number };
                aheadOfReader = sent - bytes;
                res.resume();
              })();
            }
          });
          res.on('end', resolve);
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(bytes, 50 * 1024 * 1024);
      const block = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const expected = createHash('sha256');
      for (let i = 0; i < 50 * 4096; i++) expected.update(block);
      assert.equal(digest.digest('hex'), expected.digest('hex'));
      // What the upstream wrote beyond what the reader took sits in the two sockets' kernel buffers and
      // the gateway's stream buffers; a gateway that buffered would have let all 50 MiB through.
      // The count moves in 64 KiB writes, hence the small negative slack; 32 MiB leaves room for
      // kernels that grow loopback buffers large, and is still far from the 49 MiB of a buffering proxy.
      assert.ok(
        aheadOfReader > -65536 && aheadOfReader < 32 * 1024 * 1024,
        `the upstream got ${Math.round(aheadOfReader / 1048576)} MiB ahead of the paused reader`,
      );
      // RSS is a loose ceiling only: the allocator keeps freed chunk buffers for a while (growth of
      // 7 to 33 MiB was seen with the upstream 7 to 9 MiB ahead), but a proxy that held the body would pass 50.
      assert.ok(
        peak - baseline < 48 * 1024 * 1024,
        `the gateway's memory grew by ${Math.round((peak - baseline) / 1048576)} MiB while the reader paused`,
      );
    } finally {
      await spawned.stop();
    }
  });

  it('streams a 20 MiB request body to the upstream byte for byte', async () => {
    const body = Buffer.alloc(20 * 1024 * 1024, 7);
    const res = await fetch(`${gateway.base}/api/v2/echo`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body,
    });
    assert.equal(res.status, 200);
    const echo = (await res.json()) as Echo;
    assert.equal(echo.bodyLength, body.length);
    assert.equal(echo.bodySha256, createHash('sha256').update(body).digest('hex'));
    const json = await fetch(`${gateway.base}/api/v2/echo`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"not": "parsed", "kept": [1, 2]}',
    });
    assert.equal(
      ((await json.json()) as Echo).bodySha256,
      createHash('sha256').update('{"not": "parsed", "kept": [1, 2]}').digest('hex'),
      'JSON passes unparsed',
    );
  });

  it('answers 504 when the upstream is too slow, and 502 when nothing listens, as problems', async () => {
    const slow = await fetch(`${gateway.base}/api/v2/slow?ms=2000`, { headers: auth });
    assert.equal(slow.status, 504);
    assert.equal(slow.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.equal(((await slow.json()) as { code: string }).code, 'UPSTREAM_TIMEOUT');
    assert.equal(
      (await fetch(`${gateway.base}/api/v2/slow?ms=10`, { headers: auth })).status,
      200,
      'a quick one passes',
    );
    const dead = await fetch(`${deadGateway.base}/api/v2/users/1`, { headers: auth });
    assert.equal(dead.status, 502);
    assert.equal(((await dead.json()) as { code: string }).code, 'UPSTREAM_UNREACHABLE');
  });

  it('answers 400 for a target with a malformed percent-encoding, and passes a well-formed one', async () => {
    for (const target of ['/api/v1/users?%', '/api/v1/users?q=%E2%82', '/api/v2/echo?a=%zz']) {
      const res = await fetch(`${gateway.base}${target}`, { headers: auth });
      assert.equal(res.status, 400, target);
      assert.equal(((await res.json()) as { code: string }).code, 'MALFORMED_REQUEST', target);
    }
    const ok = await fetch(`${gateway.base}/api/v2/echo?q=%E2%82%AC%25`, { headers: auth });
    assert.equal(((await ok.json()) as Echo).path, '/api/v2/echo?q=%E2%82%AC%25');
  });

  it('answers credentials itself: 401 without a key, 403 for a key without the role, never the upstream', async () => {
    assert.equal((await fetch(`${deadGateway.base}/api/v2/users/1`)).status, 401);
    const created = await fetch(`${gateway.base}/admin/v1/api-keys`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'reader', roles: ['read'] }),
    });
    assert.equal(created.status, 201);
    const { key } = (await created.json()) as { key: string };
    assert.equal(
      (await fetch(`${gateway.base}/api/v2/users/1`, { headers: { authorization: `Bearer ${key}` } })).status,
      200,
    );
    assert.equal(
      (
        await fetch(`${gateway.base}/api/v2/echo`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
          body: 'x',
        })
      ).status,
      403,
    );
  });
});
