import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSmtpCatcher, type SmtpCatcher } from '../notices/smtp-catcher.ts';
import { sharedPostgresUrl, throwawaySchema } from '../support/service-process.ts';
import { packLibrary, repo, run, startListening } from './run.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

// The example app depends on Versionary through the packed tarball, as a user's app would: this
// checks the exports map, the compiled JavaScript and the published types together, and that an
// API team's own app gets the whole deprecation loop from the public package.
describe('the example books app, installed from the packed library', { timeout: 600_000 }, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'versionary-example-'));
  const app = join(tmp, 'app');
  let smtp: SmtpCatcher;
  before(async () => {
    smtp = await startSmtpCatcher();
    const tarball = await packLibrary(tmp);
    cpSync(join(repo, 'examples/fastify-app'), app, {
      recursive: true,
      filter: (path) => !/[/\\](node_modules|dist|data)$/.test(path),
    });
    await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app });
    // Its own build script: tsc, with the library's published types checked (skipLibCheck: false).
    await run('npm', ['run', 'build'], { cwd: app });
  });
  after(async () => {
    await smtp.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const databases: Array<{ name: string; open: () => { env: Record<string, string>; cleanup: () => Promise<void> } }> =
    [
      {
        name: 'SQLite',
        open: () => ({ env: {}, cleanup: async () => rmSync(join(app, 'data'), { recursive: true, force: true }) }),
      },
      {
        name: 'PostgreSQL',
        open: () => {
          const schema = throwawaySchema();
          return {
            env: { DATABASE_URL: sharedPostgresUrl, VERSIONARY_DB_SCHEMA: schema.name },
            cleanup: () => schema.drop(),
          };
        },
      },
    ];
  for (const database of databases) {
    it(`on ${database.name}: versioned books, and the loop from a client's call to its mail, portal, docs and brownout`, async () => {
      const { env, cleanup } = database.open();
      const adminKey = `books-admin-${Date.now()}-0123456789`;
      const { base, child } = await startListening(['dist/server.js'], {
        cwd: app,
        env: {
          ...process.env,
          ...env,
          PORT: '0',
          LOG_LEVEL: 'warn',
          VERSIONARY_ADMIN_KEY: adminKey,
          VERSIONARY_PUBLIC_URL: 'https://books.example',
          VERSIONARY_SMTP_URL: smtp.url,
          VERSIONARY_MAIL_FROM: 'Books <api@books.example>',
          VERSIONARY_NOTICE_SECRET: 'n'.repeat(40),
        },
      });
      try {
        const admin = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
        const post = async (path: string, body: unknown) => {
          const res = await fetch(`${base}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
          assert.ok(res.status < 300, `${path}: ${res.status} ${await res.clone().text()}`);
          return res.json() as Promise<Record<string, unknown>>;
        };
        // 1. A client with a contact, and its key.
        const contact = `reader-${database.name.toLowerCase()}@acme.test`;
        const client = await post('/admin/v1/clients', { name: 'Acme Readers', contacts: [contact] });
        const { key } = (await post('/admin/v1/api-keys', {
          name: 'acme',
          roles: ['read', 'write'],
          clientId: client.id,
        })) as { key: string };
        const acme = { authorization: `Bearer ${key}` };
        assert.equal((await fetch(`${base}/api/v1/books`)).status, 401, 'the API needs a key');

        // Versioned routing and lifecycle headers.
        const v1 = await fetch(`${base}/api/v1/books`, { headers: acme });
        assert.equal(v1.status, 200);
        assert.ok(v1.headers.get('deprecation'), 'v1 is deprecated');
        assert.match(v1.headers.get('sunset') ?? '', /2030/);
        assert.match(v1.headers.get('link') ?? '', /<https:\/\/books\.example\/docs\/v1-to-v2>; rel="deprecation"/);
        assert.deepEqual(await v1.json(), [{ id: 1, title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin' }]);
        const v2 = await fetch(`${base}/api/v2/books`, { headers: acme });
        for (const name of ['deprecation', 'sunset', 'warning'])
          assert.equal(v2.headers.get(name), null, `v2 sends no ${name}`);
        assert.deepEqual(await v2.json(), [
          { id: 1, title: 'The Left Hand of Darkness', authorName: 'Ursula K. Le Guin', isbn: '978-0-441-47812-5' },
        ]);
        const byAccept = await fetch(`${base}/api/books/1`, {
          headers: { ...acme, accept: 'application/vnd.books+json; version=1' },
        });
        assert.equal(byAccept.status, 200);
        assert.ok(byAccept.headers.get('deprecation'));
        assert.match(
          (await fetch(`${base}/api/v2/books/1/blurb`, { headers: acme })).headers.get('sunset') ?? '',
          /2030/,
          'the deprecated v2 endpoint announces its own sunset',
        );
        const removed = await fetch(`${base}/api/v0/books`, { headers: acme });
        assert.equal(removed.status, 410);
        assert.equal(((await removed.json()) as { code: string }).code, 'VERSION_REMOVED');
        const bad = await fetch(`${base}/api/v2/books`, {
          method: 'POST',
          headers: { ...acme, 'content-type': 'application/json' },
          body: JSON.stringify({ title: '' }),
        });
        assert.equal(bad.status, 400);
        assert.equal(bad.headers.get('content-type'), 'application/problem+json; charset=utf-8');
        const document = (await (await fetch(`${base}/api/v2/openapi.json`)).json()) as {
          info: { title: string };
          paths: Record<string, Record<string, { deprecated?: boolean }>>;
        };
        assert.equal(document.info.title, 'Books API');
        assert.equal(document.paths['/api/v2/books/{id}/blurb']!.get!.deprecated, true);

        // 2. The notices pass mails the contact, with its own calls.
        const before = smtp.messages.length;
        assert.ok(Number((await post('/admin/v1/notices/run', {})).sent) >= 1);
        const mail = smtp.messages.slice(before).find((m) => m.envelopeTo.includes(contact));
        assert.ok(mail, 'the contact got a mail');
        assert.match(mail.text ?? '', /GET \/books/);

        // 3. The consumer's portal shows the v1 warning and the endpoint it calls.
        const signIn = await fetch(`${base}/portal/sign-in`, {
          method: 'POST',
          headers: form,
          body: `key=${encodeURIComponent(key)}`,
          redirect: 'manual',
        });
        assert.equal(signIn.status, 303);
        const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
        const portal = await (await fetch(`${base}/portal`, { headers: { cookie } })).text();
        assert.match(portal, /v1/);
        assert.match(portal, /\/books/);
        assert.match(portal, /deprecated/i);

        // The CLI's --server commands work against the app's management API.
        const { stdout } = await run(
          process.execPath,
          [
            'node_modules/versionary/bin/versionary.js',
            'versions',
            'list',
            '--server',
            base,
            '--key',
            adminKey,
            '--format',
            'json',
          ],
          { cwd: app },
        );
        const listed = JSON.parse(stdout) as { data: Array<{ name: string; status: string }> };
        assert.deepEqual(
          listed.data.map((v) => v.name),
          ['v0', 'v1', 'v2'],
          stdout,
        );
        assert.deepEqual([listed.data[0]!.status, listed.data[2]!.status], ['removed', 'not_deprecated']);
        // Deprecated since 2026-06-01: `ending_soon` once it has been deprecated for a while.
        assert.match(listed.data[1]!.status, /^(deprecated|ending_soon)$/);

        // 4. The docs page of v1 carries the banner.
        assert.match(await (await fetch(`${base}/docs/v1`)).text(), /id="deprecation"/);

        // 5. A brownout from the management API: 410 inside its window, 200 after it.
        const startsAt = Date.now() + 2000;
        await post('/admin/v1/brownouts', {
          version: 'v1',
          startsAt: new Date(startsAt).toISOString(),
          endsAt: new Date(startsAt + 4000).toISOString(),
        });
        await new Promise((r) => setTimeout(r, startsAt + 1000 - Date.now()));
        assert.equal((await fetch(`${base}/api/v1/books`, { headers: acme })).status, 410, 'inside the brownout');
        await new Promise((r) => setTimeout(r, startsAt + 4500 - Date.now()));
        assert.equal((await fetch(`${base}/api/v1/books`, { headers: acme })).status, 200, 'after it');
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
        await cleanup();
      }
    });
  }
});
