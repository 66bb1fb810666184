import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { loopEnv } from '../../src/loop/host/loop-env.ts';
import { loopServerOptions, versionaryLoop, type VersionaryLoopOptions } from '../../src/loop/preset.ts';
import { peersFor } from '../../src/loop/storage/peer-packages.ts';
import { booksBundle, booksLoop } from './books.ts';

// A variable meant for the team's own app: the loop must never pick it up unless handed it.
const unreachable = 'postgres://127.0.0.1:1/nope';

async function startLoop(options: Partial<VersionaryLoopOptions>): Promise<{ app: FastifyInstance; key: string }> {
  let key = '';
  const app = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books' }), logger: false });
  await app.register(versionaryLoop, {
    ...booksLoop,
    onBootstrapKey: (created) => (key = created),
    ...options,
  });
  await app.ready();
  return { app, key };
}

describe('versionaryLoop takes its settings from its caller, not from process.env', () => {
  const saved = { url: process.env.DATABASE_URL, cwd: process.cwd() };
  const tmp = mkdtempSync(join(tmpdir(), 'versionary-loop-settings-'));
  before(() => {
    process.env.DATABASE_URL = unreachable;
    // The default database is a file under the working directory: a temporary one.
    process.chdir(tmp);
  });
  after(() => {
    if (saved.url === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved.url;
    process.chdir(saved.cwd);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('the database option wins over the environment: it starts on SQLite in memory and answers /api/v1', async () => {
    const { app, key } = await startLoop({ database: 'sqlite::memory:' });
    try {
      const res = await app.inject({ url: '/api/v1/books', headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), [{ id: 1, title: 'The Dispossessed' }]);
    } finally {
      await app.close();
    }
  });

  it('without database and env, DATABASE_URL is not read: it starts on its SQLite default', async () => {
    const { app, key } = await startLoop({});
    try {
      const res = await app.inject({ url: '/api/v2/books', headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(existsSync(join(tmp, 'data', 'versionary.db')), 'the default file, not the postgres URL');
    } finally {
      await app.close();
    }
  });

  it('the package check reads the same settings: database decides whether pg is needed', () => {
    const needs = (options: Parameters<typeof loopEnv>[0]) =>
      peersFor({ env: loopEnv(options), surface: 'loop' }).some((p) => p.name === 'pg');
    assert.equal(needs({}), false, 'process.env.DATABASE_URL is not read');
    assert.equal(needs({ database: 'postgres://db/books' }), true);
    assert.equal(needs({ env: { DATABASE_URL: 'postgres://db/books' } }), true, 'env keeps working');
    assert.equal(needs({ env: { DATABASE_URL: 'postgres://db/books' }, database: 'sqlite::memory:' }), false);
  });
});

describe("the loop shows the app's API, none of the reference service's", () => {
  let app: FastifyInstance;
  let key: string;
  before(async () => {
    // Versions named v1 and v2, as the reference service's are, and no releasedAt in settings.
    ({ app, key } = await startLoop({ database: 'sqlite::memory:', settings: { versions: { v1: {}, v2: {} } } }));
  });
  after(() => app.close());

  it('a version without releasedAt shows none in the lifecycle document', async () => {
    const res = await app.inject({ url: '/api/versions' });
    assert.equal(res.statusCode, 200, res.body);
    const versions = (res.json() as { versions: Array<{ name: string; releasedAt: string | null }> }).versions;
    assert.deepEqual(
      versions.map((v) => [v.name, v.releasedAt]),
      [
        ['v1', null],
        ['v2', null],
      ],
    );
  });

  it('the management API shows no release date for them either', async () => {
    const res = await app.inject({ url: '/admin/v1/versions', headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.statusCode, 200, res.body);
    const versions = (res.json() as { data: Array<{ name: string; releasedAt: string | null }> }).data;
    assert.deepEqual(
      versions.map((v) => v.releasedAt),
      [null, null],
    );
  });

  it("/docs names the app's title, shows no release date, and never says users and posts", async () => {
    const res = await app.inject({ url: '/docs', headers: { accept: 'text/html' } });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<title>[^<]*· Books API<\/title>/);
    assert.match(res.body, /Every version of the Books API/);
    assert.doesNotMatch(res.body, /users and posts/i);
    assert.doesNotMatch(res.body, /Released|2025-01-15|2026-03-02/);
  });

  it('the changelog has no made-up release entry, and names the app', async () => {
    const page = await app.inject({ url: '/docs/changelog', headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /users and posts|v[12] released|first version/i);
    const feed = (await app.inject({ url: '/changelog.json' })).json() as {
      title: string;
      items: Array<{ id: string }>;
    };
    assert.equal(feed.title, 'Books API changelog');
    assert.ok(!feed.items.some((item) => /released/.test(item.id)), JSON.stringify(feed.items));
  });
});

describe('loopServerOptions reads the server settings from the loop options object', () => {
  it('applies timeouts and bodyLimit when the settings name them, and keeps Fastify defaults otherwise', async () => {
    const options = {
      bundle: booksBundle,
      vendor: 'books',
      settings: { timeouts: { idleSeconds: 40, keepAliveSeconds: 7 }, bodyLimit: 4096 },
    };
    const app = Fastify({ ...loopServerOptions(options), logger: false });
    assert.equal(app.initialConfig.connectionTimeout, 40_000);
    assert.equal(app.initialConfig.keepAliveTimeout, 7_000);
    assert.equal(app.initialConfig.bodyLimit, 4096);
    const plain = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books' }), logger: false });
    assert.equal(plain.initialConfig.connectionTimeout, Fastify().initialConfig.connectionTimeout);
    assert.equal(plain.initialConfig.keepAliveTimeout, Fastify().initialConfig.keepAliveTimeout);
    assert.equal(plain.initialConfig.bodyLimit, Fastify().initialConfig.bodyLimit);
    await Promise.all([app.close(), plain.close()]);
  });
});
