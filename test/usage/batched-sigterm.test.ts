import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spawnService, type ServiceProcess } from '../support/service-process.ts';
import {
  gatewayAdminKey,
  spawnGatewayIn,
  startPythonUpstream,
  writeGatewayFiles,
  type PythonUpstream,
} from '../support/gateway.ts';

// Usage is counted in memory and written in batches. Here the batches are written only every
// 300 s, so within a test nothing reaches the database but by the flush on a graceful stop: a
// crash (SIGKILL) loses the calls of the interval, and SIGTERM loses none. Both versions are
// counted: v1 (deprecated) in the per-client rollups, every call in the operation counts.
const usage = { flushSeconds: 300, operationFlushSeconds: 300 };
const rateLimit = { max: 1_000_000, windowSeconds: 60 };

interface Counts {
  deprecated: number;
  operations: Record<string, number>;
}

async function countsOf(base: string, key: string): Promise<Counts> {
  const headers = { authorization: `Bearer ${key}` };
  const version = await fetch(`${base}/admin/v1/versions/v1`, { headers });
  assert.equal(version.status, 200);
  const { usage: summary } = (await version.json()) as { usage: { calls: number } };
  const operations = await fetch(`${base}/admin/v1/usage/operations`, { headers });
  assert.equal(operations.status, 200);
  const rows = ((await operations.json()) as { data: Array<{ version: string; calls: number }> }).data;
  const perVersion: Record<string, number> = {};
  for (const row of rows) perVersion[row.version] = (perVersion[row.version] ?? 0) + row.calls;
  return { deprecated: summary.calls, operations: perVersion };
}

async function call(to: { base: string; key: string }, path: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await fetch(`${to.base}${path}`, { headers: { authorization: `Bearer ${to.key}` } });
    assert.equal(res.status, 200, `${path}: ${await res.text()}`);
  }
}

describe('node dist/server.js: batched usage across a crash and a graceful stop', { timeout: 600_000 }, () => {
  const key = 'batched-sigterm-admin-key';
  let dir: string;
  let env: Record<string, string>;
  const running: ServiceProcess[] = [];
  const start = async () => {
    const service = await spawnService({ env, entry: 'dist' });
    running.push(service);
    return service;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'versionary-batched-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ usage, rateLimit }));
    env = {
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      VERSIONARY_ADMIN_KEY: key,
      VERSIONARY_CONFIG: join(dir, 'config.json'),
      LOG_LEVEL: 'warn',
    };
  });
  after(() => {
    for (const s of running) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('a crash loses the pending batch: the calls were held in memory, not written per request', async () => {
    const first = await start();
    await call({ base: first.base, key }, '/api/v1/users', 7);
    await call({ base: first.base, key }, '/api/v2/users', 5);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await start();
    assert.deepEqual(await countsOf(second.base, key), { deprecated: 0, operations: {} });
    assert.equal((await second.stop()).code, 0);
  });

  it('SIGTERM writes every pending count: exactly N deprecated and M current calls after the restart', async () => {
    const n = 40;
    const m = 30;
    const first = await start();
    await call({ base: first.base, key }, '/api/v1/users', n);
    await call({ base: first.base, key }, '/api/v2/users', m);
    assert.equal((await first.stop()).code, 0);
    const second = await start();
    assert.deepEqual(await countsOf(second.base, key), { deprecated: n, operations: { v1: n, v2: m } });
    assert.equal((await second.stop()).code, 0);
  });
});

describe('versionary gateway: batched usage across SIGTERM', { timeout: 600_000 }, () => {
  let python: PythonUpstream;
  before(async () => {
    python = await startPythonUpstream();
  });
  after(async () => {
    await python.stop();
  });

  it('finds exactly N deprecated and M current calls after a graceful stop and a restart, none after a crash', async () => {
    const day = 86_400_000;
    const files = writeGatewayFiles({
      upstream: python.url,
      file: {
        versions: {
          v1: {
            deprecatedAt: new Date(Date.now() - day).toISOString(),
            sunsetAt: new Date(Date.now() + 200 * day).toISOString(),
            replacement: 'v2',
          },
        },
        usage,
        rateLimit,
      },
    });
    const n = 35;
    const m = 25;
    let gateway: Awaited<ReturnType<typeof spawnGatewayIn>> | undefined;
    try {
      gateway = await spawnGatewayIn(files);
      await call({ base: gateway.base, key: gatewayAdminKey }, '/api/v1/users/1', 6);
      assert.equal((await gateway.kill('SIGKILL')).signal, 'SIGKILL');
      gateway = await spawnGatewayIn(files);
      assert.deepEqual(await countsOf(gateway.base, gatewayAdminKey), { deprecated: 0, operations: {} });
      await call({ base: gateway.base, key: gatewayAdminKey }, '/api/v1/users/1', n);
      await call({ base: gateway.base, key: gatewayAdminKey }, '/api/v2/users/1', m);
      assert.equal((await gateway.kill('SIGTERM')).code, 0);
      gateway = await spawnGatewayIn(files);
      assert.deepEqual(await countsOf(gateway.base, gatewayAdminKey), {
        deprecated: n,
        operations: { v1: n, v2: m },
      });
      assert.equal((await gateway.kill('SIGTERM')).code, 0);
    } finally {
      // Whatever failed, no gateway is left running (one that has exited is not waited for).
      await gateway?.kill('SIGKILL');
      rmSync(files.dir, { recursive: true, force: true });
    }
  });
});
