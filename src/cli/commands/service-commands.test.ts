import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createCliHarness } from '../../../test/support/cli-harness.ts';
import { buildApp } from '../../compose/build-app.ts';
import { referenceProduct } from '../../reference/product.ts';
import { loadConfig } from '../../loop/settings.ts';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite-storage.ts';

const { dir, env, cli, cleanup } = createCliHarness('versionary-cli-');
after(cleanup);

describe('the management API in process', () => {
  it("leaves the reference service's users and posts out of the database (it may be a loop's)", async () => {
    const fresh = createCliHarness('versionary-cli-tables-');
    try {
      assert.equal((await fresh.cli(['versions', 'list'])).code, 0);
      const storage = await openSqliteStorage({ path: join(fresh.dir, 'v.db') });
      const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(
        storage.db,
      );
      await storage.close();
      const names = rows.map((r) => r.name);
      assert.ok(names.includes('versionary_version_schedules'), names.join());
      assert.ok(!names.includes('users') && !names.includes('posts'), names.join());
    } finally {
      fresh.cleanup();
    }
  });
});

describe('versionary keys and versions against the database', () => {
  it('keys create stores a key that the service accepts with its roles', async () => {
    const r = await cli(['keys', 'create', '--name', 'ci', '--roles', 'read']);
    assert.equal(r.code, 0, r.stderr);
    const key = /(vk_[0-9a-f]{16}\.[A-Za-z0-9_-]{43})/.exec(r.stdout)?.[1];
    assert.ok(key, r.stdout);
    const storage = await openSqliteStorage({ path: join(dir, 'v.db') });
    const config = loadConfig({
      env: { ...env, LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: 'another-admin-key-123' },
      readFile: () => '',
    });
    const app = await buildApp({
      product: referenceProduct(),
      config,
      storage,
      clock: { now: () => Date.UTC(2026, 0, 1) },
    });
    assert.equal(
      (await app.inject({ url: '/api/v2/users', headers: { authorization: `Bearer ${key}` } })).statusCode,
      200,
    );
    assert.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/api/v2/users',
          headers: { authorization: `Bearer ${key}` },
          payload: { name: 'x' },
        })
      ).statusCode,
      403,
    );
    await app.close();
    await storage.close();
  });

  it('keys create refuses bad roles and names with exit 2', async () => {
    assert.equal((await cli(['keys', 'create', '--name', 'x', '--roles', 'root'])).code, 2);
    assert.equal((await cli(['keys', 'create', '--roles', 'read'])).code, 2);
    assert.equal((await cli(['keys', 'rotate'])).code, 2);
  });

  it('versions list and deprecate apply the same policy as the service', async () => {
    const list = await cli(['versions', 'list', '--format', 'json']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { data: { name: string }[] }).data.map((v) => v.name),
      ['v1', 'v2'],
    );
    const short = await cli(['versions', 'deprecate', 'v1', '--notice-months', '2']);
    assert.equal(short.code, 1);
    assert.match(short.stderr, /notice-period/);
    assert.equal((await cli(['versions', 'deprecate', 'v2'])).code, 1);
    assert.equal((await cli(['versions', 'deprecate', 'v7'])).code, 1);
    const ok = await cli(['versions', 'deprecate', 'v1', '--notice-months', '9']);
    assert.equal(ok.code, 0, ok.stderr);
    // At the CLI's clock (2026-01-01): deprecated now, sunset 9 months (270 days) later.
    assert.match(
      ok.stdout,
      /v1\s+deprecated\s+deprecated\s+2026-01-01T00:00:00\.000Z\s+2026-09-28T00:00:00\.000Z\s+v2/,
    );
    assert.equal((await cli(['versions', 'deprecate', 'v1', '--notice-months', 'lots'])).code, 2);
    assert.equal((await cli(['versions', 'list', '--server', 'http://127.0.0.1:1'])).code, 2, 'no key for --server');
  });
});

describe('versionary versions against a running server', () => {
  it('lists and refuses through the management API with an admin key', async () => {
    const storage = await openSqliteStorage({ path: ':memory:' });
    const config = loadConfig({
      env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: 'server-admin-key-0001' },
      readFile: () => '',
    });
    const app = await buildApp({ product: referenceProduct(), config, storage, clock: { now: Date.now } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const server = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    try {
      const list = await cli(['versions', 'list', '--server', server, '--key', 'server-admin-key-0001']);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /^version\s+state/);
      const wrongKey = await cli(['versions', 'list', '--server', server, '--key', 'nope']);
      assert.equal(wrongKey.code, 2);
      const refused = await cli(['versions', 'deprecate', 'v2', '--server', server, '--key', 'server-admin-key-0001']);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /NO_REPLACEMENT/);
    } finally {
      await app.close();
      await storage.close();
    }
  });
});

describe('versionary clients against the database', () => {
  it('creates, lists, shows, updates and deletes clients; keys can belong to one', async () => {
    const created = await cli([
      'clients',
      'create',
      '--name',
      'Acme',
      '--contact',
      'dev@acme.test',
      '--contact',
      'ops@acme.test',
      '--webhook',
      'https://93.184.216.34/hooks',
      '--format',
      'json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const client = JSON.parse(created.stdout) as { id: string; webhooks: Array<{ id: string; secret: string }> };
    assert.match(client.webhooks[0]!.secret, /^whsec_/);
    const list = await cli(['clients', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`${client.id}\\s+Acme\\s+2\\s+1`));
    const shown = await cli(['clients', 'show', client.id]);
    assert.match(shown.stdout, /contact {2}dev@acme\.test/);
    assert.doesNotMatch(shown.stdout, /whsec_/, 'the secret is not shown again');
    const updated = await cli([
      'clients',
      'update',
      client.id,
      '--name',
      'Acme Corp',
      '--keep-webhook',
      client.webhooks[0]!.id,
      '--webhook',
      'https://93.184.216.35/second',
    ]);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, /Acme Corp/);
    assert.match(updated.stdout, /shown only this once[\s\S]*whsec_/);
    const key = await cli(['keys', 'create', '--name', 'acme-ci', '--roles', 'read', '--client', client.id]);
    assert.equal(key.code, 0, key.stderr);
    assert.equal(
      (await cli(['keys', 'create', '--name', 'x', '--roles', 'read', '--client', 'cl_0000000000000000'])).code,
      2,
    );
    const refused = await cli(['clients', 'delete', client.id]);
    assert.equal(refused.code, 1, 'a client with active keys is kept');
    assert.match(refused.stderr, /409 CONFLICT.*active API key/);
    assert.equal((await cli(['clients', 'create', '--name', 'Bad', '--contact', 'nope'])).code, 1);
    assert.equal(
      (await cli(['clients', 'create', '--name', 'Inside', '--webhook', 'http://127.0.0.1/x'])).code,
      1,
      'loopback webhooks are refused by default',
    );
    assert.equal((await cli(['clients', 'show', 'cl_0000000000000000'])).code, 1);
    assert.equal((await cli(['clients', 'show'])).code, 2);
    assert.equal((await cli(['clients', 'update', client.id])).code, 2);
    assert.equal((await cli(['clients', 'create'])).code, 2);
    assert.equal((await cli(['clients', 'purge'])).code, 2);
    const other = JSON.parse((await cli(['clients', 'create', '--name', 'Gone', '--format', 'json'])).stdout) as {
      id: string;
    };
    const deleted = await cli(['clients', 'delete', other.id]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal((await cli(['clients', 'show', other.id])).code, 1);
  });

  it("set-minimum sets a client's minimum version, refuses an unknown one, and none clears it", async () => {
    const made = await cli(['clients', 'create', '--name', 'Moved', '--format', 'json']);
    const { id } = JSON.parse(made.stdout) as { id: string };
    const set = await cli(['clients', 'set-minimum', id, 'v2']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /minimum version {2}v2/);
    assert.match((await cli(['clients', 'list'])).stdout, new RegExp(`${id}\\s+Moved\\s+0\\s+0\\s+v2`));
    const unknown = await cli(['clients', 'set-minimum', id, 'v9']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /400 VALIDATION_FAILED.*minimumVersion must be one of v1, v2/);
    assert.equal((await cli(['clients', 'set-minimum', id])).code, 2, 'a version is needed');
    assert.equal((await cli(['clients', 'show', id, 'v2'])).code, 2);
    const cleared = await cli(['clients', 'set-minimum', id, 'none', '--format', 'json']);
    assert.equal((JSON.parse(cleared.stdout) as { minimumVersion: unknown }).minimumVersion, null);
  });
});
