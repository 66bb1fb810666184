import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${env.PORT}`;
  // Up to a minute per start: a loaded CI machine starts slowly.
  for (let i = 0; i < 600; i++) {
    // Ready, not just live: the server listens while it opens storage, and answers 503 until then.
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { child, base };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('service did not start');
}

test(
  'usage recorded just before SIGTERM survives the restart (the buffer is flushed on shutdown)',
  { timeout: 240_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'versionary-'));
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      VERSIONARY_ADMIN_KEY: 'sigterm-test-admin-key',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
    };
    const auth = { authorization: 'Bearer sigterm-test-admin-key' };
    const children: ChildProcess[] = [];
    try {
      const first = await start(env);
      children.push(first.child);
      for (let i = 0; i < 25; i++)
        assert.equal((await fetch(`${first.base}/api/v1/users`, { headers: auth })).status, 200);
      const exited = new Promise<number | null>((resolve) => first.child.once('exit', (code) => resolve(code)));
      first.child.kill('SIGTERM');
      assert.equal(await exited, 0);
      const second = await start(env);
      children.push(second.child);
      const res = await fetch(`${second.base}/admin/v1/versions/v1`, { headers: auth });
      const body = (await res.json()) as { usage: { calls: number; clients: number; endpoints: number } };
      assert.deepEqual(body.usage, { calls: 25, clients: 1, endpoints: 1 });
      second.child.kill('SIGTERM');
      await new Promise((resolve) => second.child.once('exit', resolve));
    } finally {
      // A failed assertion must not leave a server running: the test file would never exit.
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
