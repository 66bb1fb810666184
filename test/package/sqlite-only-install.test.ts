import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventually, freePort } from '../support/service-process.ts';
import {
  installedPackages,
  installTarballApp,
  spawnInApp,
  sqliteOnlyPeers,
  booksLoopPrelude,
} from '../support/tarball-app.ts';

const adminKey = 'first-hour-admin-key-0001';

function exec(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env: { ...process.env, ...env } }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

const loopApp = `
${booksLoopPrelude}const app = Fastify(loopServerOptions({ bundle, vendor: 'books' }));
// The loop reads no environment of its own: this app hands it the process's (DATABASE_URL, VERSIONARY_*).
await app.register(versionaryLoop, { bundle, vendor: 'books', title: 'Books API', env: process.env,
  handlers: { 'books.list': async () => ({ status: 200, body: [{ id: 1, title: 'Dune' }] }) } });
console.log('listening on ' + await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }));
`;

// A newcomer installs the tarball with SQLite and nothing of PostgreSQL, Redis or SMTP, and both
// the loop in their own Fastify app and the gateway in front of a Python API serve requests.
test(
  'the tarball installed for SQLite only (no pg, ioredis, nodemailer) serves through the loop and the gateway',
  { timeout: 600_000 },
  async (t) => {
    const tmp = mkdtempSync(join(tmpdir(), 'versionary-sqlite-only-'));
    const stops: Array<() => Promise<void>> = [];
    try {
      const app = await installTarballApp(tmp, sqliteOnlyPeers);
      const installed = installedPackages(app);
      for (const absent of ['pg', 'ioredis', 'nodemailer'])
        assert.ok(!installed.includes(absent), `${absent} is absent`);
      const env = { ...process.env, VERSIONARY_ADMIN_KEY: adminKey, VERSIONARY_SMTP_URL: 'log:', LOG_LEVEL: 'warn' };
      const auth = { authorization: `Bearer ${adminKey}` };

      await t.test('the loop', async () => {
        writeFileSync(join(app, 'loop.js'), loopApp);
        const port = await freePort();
        const loop = spawnInApp(process.execPath, ['loop.js'], {
          cwd: app,
          env: { ...env, PORT: String(port), DATABASE_URL: 'sqlite:./loop.db' },
        });
        stops.push(loop.stop);
        await eventually(async () => /listening on/.test(loop.output()), 60_000).catch(() => {
          throw new Error(loop.output());
        });
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/books`, { headers: auth });
        assert.equal(res.status, 200, loop.output());
        assert.deepEqual(await res.json(), [{ id: 1, title: 'Dune' }]);
        assert.doesNotMatch(loop.output(), /ERR_MODULE_NOT_FOUND/);
      });

      await t.test('the gateway, with --config and --port', async () => {
        const upstreamPort = await freePort();
        const upstream = spawnInApp(
          'python3',
          ['node_modules/versionary/examples/gateway/upstream.py', String(upstreamPort)],
          { cwd: app },
        );
        stops.push(upstream.stop);
        await eventually(async () => /ready/.test(upstream.output()), 10_000);
        const document = (v: string) => `./node_modules/versionary/examples/gateway/openapi-${v}.json`;
        writeFileSync(
          join(app, 'gateway.json'),
          JSON.stringify({
            gateway: {
              vendor: 'acme',
              versions: {
                v1: { upstream: `http://127.0.0.1:${upstreamPort}`, openapi: document('v1') },
                v2: { upstream: `http://127.0.0.1:${upstreamPort}`, openapi: document('v2') },
              },
            },
          }),
        );
        const port = await freePort();
        const gateway = spawnInApp(
          process.execPath,
          ['node_modules/versionary/bin/versionary.js', 'gateway', '--config', 'gateway.json', '--port', String(port)],
          { cwd: app, env: { ...env, DATABASE_URL: 'sqlite:./gateway.db' } },
        );
        stops.push(gateway.stop);
        await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 60_000).catch(
          () => {
            throw new Error(gateway.output());
          },
        );
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/users/1`, { headers: auth });
        assert.equal(res.status, 200, gateway.output());
        assert.deepEqual(await res.json(), { id: 1, name: 'Ada Lovelace' });
      });

      await t.test('a configuration that needs more packages names them all at once, without a stack', async () => {
        const more = {
          DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
          VERSIONARY_REDIS_URL: 'redis://127.0.0.1:6379',
          VERSIONARY_SMTP_URL: 'smtp://127.0.0.1:2525',
          VERSIONARY_MAIL_FROM: 'notices@example.com',
        };
        for (const args of [
          ['node_modules/versionary/bin/versionary.js', 'gateway', '--config', 'gateway.json'],
          ['loop.js'],
        ]) {
          const r = await exec(args, app, { ...more, PORT: '0' });
          assert.notEqual(r.code, 0);
          assert.match(
            r.stderr,
            /needs 3 package\(s\) that are not installed, for PostgreSQL, Redis, SMTP mail: pg, ioredis, nodemailer/,
          );
          assert.match(r.stderr, /npm install pg@"[^"]+" ioredis@"[^"]+" nodemailer@"[^"]+"/);
          assert.doesNotMatch(r.stderr, /ERR_MODULE_NOT_FOUND|internal error|\n\s+at .*:\d+:\d+/, r.stderr);
        }
      });
    } finally {
      for (const stop of stops.reverse()) await stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);
