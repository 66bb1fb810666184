import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventually, freePort } from '../support/service-process.ts';
import { installedPackages, installTarballApp, spawnInApp, booksLoopPrelude } from '../support/tarball-app.ts';

const adminKey = 'minimal-loop-admin-key-0001';

// The loop without its portal and notices: lifecycle and usage per client first, as a team adopts it.
const minimalApp = `
${booksLoopPrelude}const day = 86_400_000;
const options = {
  bundle, vendor: 'books', title: 'Books API', database: 'sqlite:./loop.db', portal: false, notices: false,
  env: { VERSIONARY_ADMIN_KEY: process.env.ADMIN_KEY },
  settings: { versions: { v1: { deprecatedAt: new Date(Date.now() - day).toISOString(), sunsetAt: new Date(Date.now() + 365 * day).toISOString(), replacement: 'v2' }, v2: {} } },
  identify: (request) => (request.headers['x-client'] ? { clientId: String(request.headers['x-client']), roles: ['read'] } : undefined),
  handlers: { 'books.list': async () => ({ status: 200, body: [{ id: 1, title: 'Dune' }] }) },
};
const app = Fastify(loopServerOptions(options));
await app.register(versionaryLoop, options);
console.log('listening on ' + await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }));
`;

test(
  'the loop with portal: false and notices: false runs with only its storage driver installed',
  { timeout: 600_000 },
  async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'versionary-minimal-loop-'));
    let stop = async () => {};
    try {
      const app = await installTarballApp(tmp, ['fastify', 'kysely', 'libsql', 'jose', 'ipaddr.js', 'prom-client']);
      const installed = installedPackages(app);
      for (const absent of [
        'preact',
        'swagger-ui-dist',
        'htm',
        'fast-xml-parser',
        '@fastify/cookie',
        '@fastify/formbody',
        'nodemailer',
        'pg',
        'ioredis',
        '@modelcontextprotocol/sdk',
      ])
        assert.ok(!installed.includes(absent), `${absent} is not installed`);
      writeFileSync(join(app, 'loop.js'), minimalApp);
      const port = await freePort();
      const loop = spawnInApp(process.execPath, ['loop.js'], {
        cwd: app,
        env: { ...process.env, PORT: String(port), ADMIN_KEY: adminKey },
      });
      stop = loop.stop;
      await eventually(async () => /listening on/.test(loop.output()), 60_000).catch(() => {
        throw new Error(loop.output());
      });
      const base = `http://127.0.0.1:${port}`;
      const admin = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
      const v1 = await fetch(`${base}/api/v1/books`, { headers: { 'x-client': 'acme' } });
      assert.equal(v1.status, 200, loop.output());
      assert.ok(v1.headers.get('deprecation'), 'v1 is deprecated');

      const sunsetAt = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10) + 'T00:00:00.000Z';
      const put = await fetch(`${base}/admin/v1/versions/v1/deprecation`, {
        method: 'PUT',
        headers: admin,
        body: JSON.stringify({ sunsetAt }),
      });
      assert.equal(put.status, 200, await put.clone().text());
      const again = await fetch(`${base}/api/v1/books`, { headers: { 'x-client': 'acme' } });
      assert.equal(again.headers.get('sunset'), sunsetAt, 'the rescheduled sunset is stored and served');

      const calls = await fetch(`${base}/admin/v1/versions/v1/calls`, { headers: admin });
      assert.equal(calls.status, 200);
      assert.match(await calls.text(), /acme/, 'usage is counted per client');
      assert.equal((await fetch(`${base}/portal`)).status, 404, 'no portal');
      // The MCP endpoint is there, and names the packages it lacks rather than failing the start.
      const mcp = await fetch(`${base}/admin/mcp`, {
        method: 'POST',
        headers: { ...admin, accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
      });
      assert.equal(mcp.status, 501);
      assert.match(String(mcp.headers.get('content-type')), /^application\/problem\+json/);
      const problem = (await mcp.json()) as { code: string; detail: string };
      assert.equal(problem.code, 'PACKAGE_MISSING');
      assert.match(problem.detail, /npm install @modelcontextprotocol\/sdk@"\^[\d.]+" zod@"\^[\d.]+"/);
      assert.doesNotMatch(loop.output(), /ERR_MODULE_NOT_FOUND/);
    } finally {
      await stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  },
);
