import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventually, freePort } from '../support/service-process.ts';
import { installTarballApp, spawnInApp, sqliteOnlyPeers } from '../support/tarball-app.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// `npx versionary gateway` is npm → sh → node: npm exits on SIGTERM without passing it on, and
// the gateway must not stay behind, orphaned and serving, but drain and stop as on SIGTERM.
test('the gateway started through npx drains and stops when npm gets SIGTERM', { timeout: 600_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'versionary-npx-signals-'));
  let gatewayPid = 0;
  try {
    const app = await installTarballApp(tmp, sqliteOnlyPeers);
    const document = (v: string) => `./node_modules/versionary/examples/gateway/openapi-${v}.json`;
    const upstream = `http://127.0.0.1:${await freePort()}`;
    writeFileSync(
      join(app, 'gateway.json'),
      JSON.stringify({
        gateway: {
          vendor: 'acme',
          versions: { v1: { upstream, openapi: document('v1') }, v2: { upstream, openapi: document('v2') } },
        },
      }),
    );
    const port = await freePort();
    const npx = spawnInApp('npx', ['versionary', 'gateway', '--config', 'gateway.json', '--port', String(port)], {
      cwd: app,
      env: {
        ...process.env,
        VERSIONARY_ADMIN_KEY: 'npx-signals-admin-key-0001',
        DATABASE_URL: 'sqlite:./gateway.db',
        VERSIONARY_SHUTDOWN_DELAY_MS: '0',
        LOG_LEVEL: 'info',
      },
    });
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 60_000).catch(() => {
      throw new Error(npx.output());
    });
    gatewayPid = Number(/"pid":(\d+)/.exec(npx.output())?.[1]);
    assert.ok(gatewayPid > 0 && gatewayPid !== npx.child.pid, 'the gateway is a process of its own, below npm');
    npx.child.kill('SIGTERM');
    await eventually(async () => !alive(gatewayPid), 20_000).catch(() => {
      throw new Error(`the gateway (pid ${gatewayPid}) is still running after npm exited:\n${npx.output()}`);
    });
    assert.match(npx.output(), /npm, which started this process, has exited: shutting down as on SIGTERM/);
    assert.match(npx.output(), /"signal":"SIGTERM"[^\n]*shutting down/);
    assert.match(npx.output(), /"msg":"stopped"/);
  } finally {
    if (gatewayPid > 0 && alive(gatewayPid)) process.kill(gatewayPid, 'SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  }
});
