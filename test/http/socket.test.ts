import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertProblemShape } from '../support/assertions.ts';
import { adminHeaders, createTestApp, testAdminKey, type TestApp } from '../support/test-app.ts';

describe('over a real socket', () => {
  let t: TestApp;
  let base: string;
  let connections = 0;
  before(async () => {
    t = await createTestApp();
    t.app.server.on('connection', () => {
      connections++;
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  it('keeps the connection alive across requests', async () => {
    const res = await fetch(`${base}/api/v1/users`, { headers: adminHeaders });
    assert.equal(res.headers.get('connection'), 'keep-alive');
    assert.match(String(res.headers.get('keep-alive')), /timeout=\d+/);
    await res.arrayBuffer();
    // One pooled socket, so any reconnect would show as a second server-side connection.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const port = (t.app.server.address() as AddressInfo).port;
    const start = connections;
    const ports = new Set<number>();
    try {
      for (let i = 0; i < 5; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          httpRequest(
            { agent, port, host: '127.0.0.1', path: i % 2 ? '/api/v2/users' : '/api/v1/users', headers: adminHeaders },
            (r) => {
              ports.add(r.socket.localPort ?? 0);
              r.resume();
              r.on('end', () => resolve(r.statusCode ?? 0));
            },
          )
            .on('error', reject)
            .end();
        });
        assert.equal(status, 200);
      }
    } finally {
      agent.destroy();
    }
    assert.equal(connections - start, 1);
    assert.equal(ports.size, 1);
  });

  it('answers 413 to a real upload over 1 MiB, and stays up', async () => {
    const body = JSON.stringify({ name: 'big', nickname: 'n'.repeat(2 * 1024 * 1024) });
    const res = await fetch(`${base}/api/v2/users`, {
      method: 'POST',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      body,
    });
    assert.equal(res.status, 413);
    assert.match(String(res.headers.get('content-type')), /^application\/problem\+json/);
    assertProblemShape(await res.json(), 413);
    const count = await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
  });

  it('answers 413 to a chunked upload without Content-Length once it passes 1 MiB', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/v2/users',
        headers: { ...adminHeaders, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      req.write('{"name":"');
      let sent = 0;
      const pump = () => {
        while (sent < 2 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end('"}');
      };
      pump();
    });
    assert.equal(status, 413);
  });

  it('accepts a body one byte under the limit, and refuses one exactly a byte over', async () => {
    const limit = 1024 * 1024;
    // A valid post padded with JSON whitespace, so the size is all that differs.
    const json = JSON.stringify({ name: 'Under' });
    const under = json + ' '.repeat(limit - 1 - Buffer.byteLength(json));
    const headers = { ...adminHeaders, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v2/users`, { method: 'POST', headers, body: under });
    assert.equal(Buffer.byteLength(under), limit - 1);
    assert.equal(created.status, 201, await created.clone().text());
    assert.equal(((await created.json()) as { name: string }).name, 'Under');
    const over = await fetch(`${base}/api/v2/users`, { method: 'POST', headers, body: `${under}  ` });
    assert.equal(over.status, 413);
    await over.arrayBuffer();
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe('npm start', () => {
  it('runs the compiled dist/server.js, answers, and exits 0 on SIGTERM', { timeout: 120_000 }, async () => {
    const port = await freePort();
    // `npm start` is `node dist/server.js`: test what it runs (npm test builds dist/ first).
    const child = spawn(process.execPath, ['dist/server.js'], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: {
        ...process.env,
        DATABASE_URL: 'sqlite::memory:',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        VERSIONARY_CONFIG: '',
        VERSIONARY_ADMIN_KEY: testAdminKey,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    const exited = once(child, 'exit');
    try {
      let res: Response | undefined;
      // Up to a minute: a loaded CI machine starts slowly; what is asserted does not change.
      // Ready, not just listening: the server answers 503 while it opens storage, until /readyz is 200.
      for (let i = 0; i < 1200 && !res?.ok; i++) {
        res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        if (!res?.ok) await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(res?.ok, `not ready on port ${port}; stderr: ${stderr}`);
      res = await fetch(`http://127.0.0.1:${port}/api/v2/users`, { headers: adminHeaders });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { data: [], meta: { limit: 20, nextCursor: null, next: null } });
      const created = await fetch(`http://127.0.0.1:${port}/api/v1/users`, {
        method: 'POST',
        headers: { ...adminHeaders, 'content-type': 'application/json' },
        body: '{"name":"started"}',
      });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('location'), '/api/v1/users/1');
    } finally {
      child.kill('SIGTERM');
    }
    const [code, signal] = await exited;
    assert.equal(signal, null, stderr);
    assert.equal(code, 0, stderr);
  });
});
