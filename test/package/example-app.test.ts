import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { packLibrary, repo, run, startListening } from './run.ts';

// The example app depends on Versionary through the packed tarball, as a user's app would: this
// checks the exports map, the compiled JavaScript and the published types together.
test('the example app installs the packed library, type-checks and serves versioned books', { timeout: 600_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'versionary-example-'));
  try {
    const tarball = await packLibrary(tmp);
    const app = join(tmp, 'app');
    cpSync(join(repo, 'examples/fastify-app'), app, { recursive: true, filter: (path) => !/[/\\](node_modules|dist)$/.test(path) });
    await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app });
    await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: app });

    const { base, child } = await startListening(['dist/server.js'], { cwd: app, env: { ...process.env, PORT: '0' } });
    try {
      const v1 = await fetch(`${base}/api/v1/books`);
      assert.equal(v1.status, 200);
      assert.equal(v1.headers.get('deprecation'), '2026-06-01T00:00:00.000Z');
      assert.equal(v1.headers.get('sunset'), '2030-06-30T00:00:00.000Z');
      assert.match(v1.headers.get('link') ?? '', /<https:\/\/books\.example\/docs\/v1-to-v2>; rel="deprecation"/);
      assert.deepEqual(await v1.json(), [{ id: 1, title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin' }]);

      const v2 = await fetch(`${base}/api/v2/books`);
      assert.equal(v2.status, 200);
      for (const name of ['deprecation', 'sunset', 'link', 'warning']) assert.equal(v2.headers.get(name), null, `v2 sends no ${name}`);
      assert.equal(((await v2.json()) as Array<{ isbn?: string }>)[0]!.isbn, '978-0-441-47812-5');

      const byAccept = await fetch(`${base}/api/books/1`, { headers: { accept: 'application/vnd.books+json; version=1' } });
      assert.equal(byAccept.status, 200);
      assert.equal(byAccept.headers.get('deprecation'), '2026-06-01T00:00:00.000Z');

      const blurb = await fetch(`${base}/api/v2/books/1/blurb`);
      assert.equal(blurb.headers.get('sunset'), '2030-12-31T00:00:00.000Z', 'the deprecated v2 endpoint announces its own sunset');

      for (const version of ['v1', 'v2']) {
        const doc = await fetch(`${base}/api/${version}/openapi.json`);
        assert.equal(doc.status, 200);
        const body = await doc.json() as { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, { deprecated?: boolean }>> };
        assert.equal(body.openapi, '3.1.0');
        assert.deepEqual(body.info, { title: 'Books API', version });
        assert.ok(body.paths[`/api/${version}/books`]);
      }
      const v2doc = await (await fetch(`${base}/api/v2/openapi.json`)).json() as { paths: Record<string, Record<string, { deprecated?: boolean }>> };
      assert.equal(v2doc.paths['/api/v2/books/{id}/blurb']!.get!.deprecated, true);

      const removed = await fetch(`${base}/api/v0/books`);
      assert.equal(removed.status, 410);
      assert.equal(removed.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      const problem = await removed.json() as { code: string; replacement: string };
      assert.equal(problem.code, 'VERSION_REMOVED');
      assert.equal(problem.replacement, 'v2');

      const bad = await fetch(`${base}/api/v2/books`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: '' }) });
      assert.equal(bad.status, 400);
      assert.equal(bad.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    } finally {
      child.kill('SIGTERM');
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
