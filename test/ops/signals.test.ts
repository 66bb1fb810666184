import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { eventually, freePort, spawnService, type ServiceProcess } from '../support/service-process.ts';

const adminKey = `signals-admin-${randomBytes(4).toString('hex')}`;
const admin = { authorization: `Bearer ${adminKey}` };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = { status: number; connection?: string; retryAfter?: string } | { error: string };

function call(base: string, agent: Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    get(`${base}/api/v2/users`, { agent, headers: admin }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          connection: res.headers.connection,
          retryAfter: res.headers['retry-after'] as string | undefined,
        }),
      );
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    }).on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

async function usageCalls(base: string): Promise<number> {
  return (
    (await (await fetch(`${base}/admin/v1/versions/v1`, { headers: admin })).json()) as { usage: { calls: number } }
  ).usage.calls;
}

describe('signals in the real process', { timeout: 600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-signals-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ rateLimit: { max: 1_000_000, windowSeconds: 60 } }));
  const envFor = (name: string) => ({
    DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
    VERSIONARY_ADMIN_KEY: adminKey,
    LOG_LEVEL: 'warn',
    VERSIONARY_CONFIG: config,
  });
  const running: ServiceProcess[] = [];
  after(() => {
    for (const s of running) s.child.kill('SIGKILL');
  });
  const spawnTracked = async (env: Record<string, string>) => {
    const service = await spawnService({ env });
    running.push(service);
    return service;
  };

  it('10 rounds of 40 concurrent requests sent 0 to 20 ms before SIGTERM: none is reset', async (t) => {
    const resets: number[] = [];
    const closing: number[] = [];
    const refused: number[] = [];
    for (let round = 0; round < 10; round++) {
      // Even rounds: keep-alive connections opened beforehand and no delay, so requests arrive on
      // accepted connections while the drain begins. Odd rounds: new connections, during the delay.
      const warm = round % 2 === 0;
      const service = await spawnTracked({
        ...envFor(`round-${round}`),
        VERSIONARY_SHUTDOWN_DELAY_MS: warm ? '0' : '1000',
      });
      const agent = new Agent({ keepAlive: true, maxSockets: 40 });
      if (warm) {
        const opened = await Promise.all(Array.from({ length: 40 }, () => call(service.base, agent)));
        assert.ok(opened.every((o) => 'status' in o && o.status === 200));
      }
      const wave = (from: number) =>
        Array.from({ length: 40 }, async () => {
          await sleep(from + Math.random() * 20);
          return call(service.base, agent);
        });
      // 40 requests sent 0 to 20 ms before SIGTERM; on kept-alive connections, 40 more in the 20 ms
      // after it, as a load balancer keeps sending on its open connections until it notices.
      const outcomes = Promise.all([...wave(0), ...(warm ? wave(20) : [])]);
      await sleep(20);
      service.child.kill('SIGTERM');
      const results = await outcomes;
      const { code } = await service.exited;
      agent.destroy();
      assert.equal(code, 0, service.output().slice(-2000));
      // A refused connection never reached the server (a request after the listener closed, on a
      // new connection because its old one was closed after an answer): the client retries elsewhere.
      const failed = results.filter((o) => 'error' in o && o.error !== 'ECONNREFUSED');
      resets.push(failed.length);
      refused.push(results.filter((o) => 'error' in o && o.error === 'ECONNREFUSED').length);
      assert.deepEqual(failed, [], `round ${round} (${warm ? 'keep-alive, no delay' : 'new connections, 1 s delay'})`);
      if (!warm) assert.equal(refused.at(-1), 0, 'new connections during the delay are all accepted');
      for (const o of results) {
        if (!('status' in o) || o.status === 200) continue;
        // The only other answer allowed: a 503 that sends the client elsewhere.
        assert.equal(o.status, 503);
        assert.equal(o.connection, 'close');
        assert.ok(o.retryAfter);
      }
      // Answered before the signal arrived, a response keeps its connection; during the drain, it closes it.
      closing.push(results.filter((o) => 'status' in o && o.connection === 'close').length);
    }
    t.diagnostic(
      `resets per round: ${resets.join(', ')}; answered with Connection: close (during the drain): ${closing.join(', ')}; refused (new connection after the listener closed): ${refused.join(', ')}`,
    );
    assert.ok(
      closing.some((n) => n > 0),
      'some requests did meet the drain',
    );
  });

  it('during the delay /readyz fails at once while requests are still served; then the listener closes', async () => {
    const service = await spawnTracked({
      ...envFor('delay'),
      VERSIONARY_SHUTDOWN_DELAY_MS: '1500',
      VERSIONARY_SHUTDOWN_TIMEOUT_MS: '10000',
    });
    const signalled = Date.now();
    service.child.kill('SIGTERM');
    await eventually(async () => (await fetch(`${service.base}/readyz`)).status === 503, 1000);
    const served = await fetch(`${service.base}/api/v2/users`, { headers: admin });
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('connection'), 'close');
    assert.ok(Date.now() - signalled < 1500, 'still within the delay');
    await eventually(
      async () =>
        fetch(`${service.base}/livez`).then(
          () => false,
          () => true,
        ),
      5000,
    );
    assert.ok(Date.now() - signalled >= 1400, `the listener closed after ${Date.now() - signalled} ms`);
    assert.equal((await service.exited).code, 0);
  });

  for (const [name, first, second] of [
    ['SIGTERM', 'SIGTERM', 'SIGTERM'],
    ['SIGINT then SIGTERM', 'SIGINT', 'SIGTERM'],
  ] as const) {
    it(`a second signal (${name}, 0 to 2 ms apart) is ignored: usage is kept, exit 0`, async (t) => {
      const counted: number[] = [];
      for (const gap of [0, 1, 2]) {
        const env = envFor(`twice-${first}-${gap}`);
        const service = await spawnTracked(env);
        for (let i = 0; i < 10; i++)
          assert.equal((await fetch(`${service.base}/api/v1/users`, { headers: admin })).status, 200);
        service.child.kill(first);
        if (gap > 0) await sleep(gap);
        service.child.kill(second);
        const { code, signal } = await service.exited;
        assert.deepEqual({ code, signal }, { code: 0, signal: null }, service.output().slice(-2000));
        // Two identical signals a moment apart may reach the process as one (the kernel does not
        // queue a standard signal that is still pending); two different ones always arrive.
        if (first !== second) assert.match(service.output(), /already shutting down; signal ignored/);
        const again = await spawnTracked(env);
        counted.push(await usageCalls(again.base));
        await again.stop();
      }
      t.diagnostic(`deprecated calls counted of 10, gaps 0/1/2 ms: ${counted.join(', ')}`);
      assert.deepEqual(counted, [10, 10, 10]);
    });
  }

  it('a SIGTERM during the drain is logged and ignored: the drain finishes and the process exits 0', async () => {
    const service = await spawnTracked({ ...envFor('again'), VERSIONARY_SHUTDOWN_DELAY_MS: '1000' });
    service.child.kill('SIGTERM');
    await eventually(async () => (await fetch(`${service.base}/readyz`)).status === 503, 1000);
    service.child.kill('SIGTERM');
    const { code, signal } = await service.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null });
    assert.match(service.output(), /"signal":"SIGTERM".*already shutting down; signal ignored/);
  });

  it('a third SIGINT forces the exit of a drain that waits on a stuck request', async () => {
    const service = await spawnTracked({ ...envFor('third'), VERSIONARY_SHUTDOWN_TIMEOUT_MS: '60000' });
    const stuck = connect(service.port, '127.0.0.1');
    stuck.on('error', () => {});
    await once(stuck, 'connect');
    stuck.write(
      `POST /api/v2/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${adminKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
    );
    await sleep(300);
    const started = Date.now();
    for (let i = 0; i < 3; i++) {
      service.child.kill('SIGINT');
      await sleep(100);
    }
    const { code } = await service.exited;
    assert.equal(code, 130);
    assert.match(service.output(), /already shutting down; signal ignored/, 'the second was ignored');
    assert.match(service.output(), /third SIGINT: exiting now/);
    assert.ok(Date.now() - started < 5000);
    stuck.destroy();
  });

  it('`npm start` signalled as a process group (npm forwards a second SIGTERM): every call counted', async () => {
    const env = envFor('npm-group');
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: new URL('../..', import.meta.url).pathname,
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', VERSIONARY_SHUTDOWN_DELAY_MS: '0' },
    });
    const exited = once(npm, 'exit');
    try {
      const base = `http://127.0.0.1:${port}`;
      await eventually(async () => (await fetch(`${base}/readyz`)).status === 200, 60_000);
      for (let i = 0; i < 10; i++) assert.equal((await fetch(`${base}/api/v1/users`, { headers: admin })).status, 200);
      // As systemd (KillMode=control-group), `tini -g` or `kill -- -PGID` do: every process of the group.
      process.kill(-npm.pid!, 'SIGTERM');
      await exited;
      await eventually(
        async () =>
          fetch(`${base}/livez`).then(
            () => false,
            () => true,
          ),
        10_000,
      );
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    const again = await spawnTracked(env);
    assert.equal(await usageCalls(again.base), 10);
    await again.stop();
  });
});
