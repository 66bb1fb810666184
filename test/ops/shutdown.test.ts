import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { eventually, freePort, spawnService } from '../support/service-process.ts';

const adminKey = `shutdown-admin-${randomBytes(4).toString('hex')}`;
const admin = { authorization: `Bearer ${adminKey}` };

describe('graceful shutdown of the real process', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-shutdown-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ rateLimit: { max: 1_000_000, windowSeconds: 60 } }));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const envFor = (name: string) => ({
    DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
    VERSIONARY_ADMIN_KEY: adminKey,
    VERSIONARY_CONFIG: config,
  });

  it('under load: no request is cut, every usage record survives, exit 0', async () => {
    const env = envFor('load');
    const service = await spawnService({ env });
    const outcomes = new Map<string, string>();
    let stop = false;
    let deprecatedServed = 0;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const id = `w${w}-${i}`;
        try {
          const res = await fetch(`${service.base}/api/v1/users`, { headers: { ...admin, 'x-request-id': id } });
          await res.arrayBuffer();
          outcomes.set(id, String(res.status));
          if (res.status === 200 && res.headers.get('deprecation')) deprecatedServed++;
          if (res.status !== 200) stop = true;
        } catch (error) {
          outcomes.set(id, `error ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}`);
          stop = true;
        }
      }
    };
    const workers = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    await new Promise((r) => setTimeout(r, 1500));
    const signalled = Date.now();
    const exit = service.stop();
    await workers;
    const { code } = await exit;
    assert.equal(code, 0, service.output().slice(-2000));
    assert.ok(Date.now() - signalled < 20_000);
    // Every request the server received was answered in full.
    const received = service
      .output()
      .split('\n')
      .filter((l) => l.includes('"incoming request"'))
      .map((l) => (JSON.parse(l) as { reqId: string }).reqId);
    assert.ok(received.length > 50, `only ${received.length} requests under load`);
    for (const id of received)
      assert.equal(outcomes.get(id), '200', `request ${id} was received but answered ${outcomes.get(id)}`);
    // What failed never reached it: refused connections after the listener closed.
    for (const [id, outcome] of outcomes) if (outcome !== '200') assert.ok(!received.includes(id), `${id}: ${outcome}`);
    // Restarted on the same database, the usage summary has every deprecated call served.
    const again = await spawnService({ env });
    const usage = (await (await fetch(`${again.base}/admin/v1/versions/v1`, { headers: admin })).json()) as {
      usage: { calls: number };
    };
    assert.equal(usage.usage.calls, deprecatedServed);
    assert.equal((await again.stop()).code, 0);
  });

  it('idle keep-alive connections do not hold the exit, and the deadline bounds a request that never ends', async () => {
    const service = await spawnService({ env: { ...envFor('deadline'), VERSIONARY_SHUTDOWN_TIMEOUT_MS: '1500' } });
    // An idle keep-alive connection...
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      httpRequest(`${service.base}/livez`, { agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      })
        .on('error', reject)
        .end();
    });
    // ...and a request whose body never comes.
    const stuck = connect(service.port, '127.0.0.1');
    await new Promise((r) => stuck.once('connect', r));
    stuck.write(
      `POST /api/v2/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${adminKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
    );
    stuck.on('error', () => {});
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const { code } = await service.stop();
    const took = Date.now() - started;
    assert.equal(code, 0);
    assert.ok(took >= 1400, `the stuck request had its ${took} ms`);
    assert.ok(took < 10_000, `exited after ${took} ms`);
    assert.match(service.output(), /shutdown deadline reached with requests still running/);
    agent.destroy();
    stuck.destroy();
  });

  it('a request in flight at SIGTERM is finished, answered with Connection: close, and its write kept', async () => {
    const env = { ...envFor('inflight'), VERSIONARY_SHUTDOWN_TIMEOUT_MS: '10000' };
    const service = await spawnService({ env });
    const socket = connect(service.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let answer = '';
    socket.on('data', (d) => {
      answer += String(d);
    });
    const body = JSON.stringify({ name: 'in flight' });
    socket.write(
      `POST /api/v2/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${adminKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    service.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    socket.write(body.slice(5));
    await new Promise((r) => socket.once('close', r));
    assert.match(answer, /^HTTP\/1.1 201 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.equal((await service.exited).code, 0);
    const again = await spawnService({ env });
    const users = (await (await fetch(`${again.base}/api/v2/users`, { headers: admin })).json()) as {
      data: Array<{ name: string }>;
    };
    assert.deepEqual(
      users.data.map((u) => u.name),
      ['in flight'],
    );
    await again.stop();
  });

  it('SIGTERM to `npm start` reaches the server: no process is left on the port', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, ...envFor('npm'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = once(npm, 'exit');
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 60_000);
    npm.kill('SIGTERM');
    await exited;
    await eventually(
      async () =>
        await fetch(`http://127.0.0.1:${port}/livez`).then(
          () => false,
          () => true,
        ),
      10_000,
    );
  });
});
