import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliProcess } from '../support/cli-process.ts';

const root = new URL('../..', import.meta.url).pathname;

function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// Another process already listens on the port: the start says which port, and what to do, in one line.
describe('a port already in use', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-port-in-use-'));
  let taken: Server;
  let port = 0;
  const env = () => ({
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: `sqlite:${join(dir, 'service.db')}`,
    VERSIONARY_ADMIN_KEY: 'port-in-use-admin-key-0001',
    VERSIONARY_CONFIG: '',
    LOG_LEVEL: 'silent',
  });
  before(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  after(() => {
    taken.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const expected = () =>
    new RegExp(
      `port ${port} on 127\\.0\\.0\\.1 is already in use \\(EADDRINUSE\\): stop the process that listens there, or choose a free port with PORT`,
    );

  it('node dist/server.js names the port and exits 1', async () => {
    const r = await run(['dist/server.js'], env());
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, expected());
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });

  it('versionary serve --port names the port and exits 2, as any start that cannot run', async () => {
    const r = await runCliProcess(['serve', '--port', String(port)], { cwd: root, env: env() });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^versionary serve: /);
    assert.match(r.stderr, expected());
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  });

  it('the metrics port in use is named by its setting, and the service does not stay up', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const main = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
    const r = await run(['dist/server.js'], { ...env(), PORT: String(main), VERSIONARY_METRICS_PORT: String(port) });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use .*VERSIONARY_METRICS_PORT`));
  });
});
