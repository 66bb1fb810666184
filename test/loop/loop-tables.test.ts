import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Fastify from 'fastify';
import { versionaryLoop, loopServerOptions } from '../../src/loop/index.ts';
import { rawDb, tablesOf, type Place } from '../support/database-shape.ts';
import { startTestGateway } from '../support/gateway.ts';
import { sharedPostgresUrl, throwawaySchema } from '../support/service-process.ts';
import { createTestApp, createUser, json } from '../support/test-app.ts';
import { booksBundle, booksLoop } from './books.ts';

const adminKey = 'loop-tables-admin-key-0123456789';

/** Start a loop app on a database, use it (a key, a call), stop it, and list the tables it left. */
async function tablesAfterALoop(place: Place): Promise<string[]> {
  const app = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books' }) });
  await app.register(versionaryLoop, {
    ...booksLoop,
    env: {
      DATABASE_URL: place.kind === 'sqlite' ? `sqlite:${place.path}` : place.url,
      ...(place.kind === 'postgres' ? { VERSIONARY_DB_SCHEMA: place.schema } : {}),
      LOG_LEVEL: 'silent',
      VERSIONARY_ADMIN_KEY: adminKey,
    },
    settings: { notices: { intervalSeconds: 0 } },
  });
  await app.ready();
  const created = await app.inject({
    method: 'POST',
    url: '/admin/v1/api-keys',
    headers: { authorization: `Bearer ${adminKey}` },
    payload: { name: 'k', roles: ['read'] },
  });
  assert.equal(created.statusCode, 201, created.body);
  const books = await app.inject({ url: '/api/v2/books', headers: { authorization: `Bearer ${created.json().key}` } });
  assert.equal(books.statusCode, 200, books.body);
  await app.close();
  const db = await rawDb(place);
  try {
    return await tablesOf(db, place);
  } finally {
    await db.destroy();
  }
}

const onlyLoopTables = (tables: string[]) => {
  assert.ok(tables.includes('versionary_api_keys') && tables.includes('versionary_migration'), tables.join());
  assert.deepEqual(
    tables.filter((t) => !t.startsWith('versionary_')),
    [],
    'no users, posts, kysely_migration or other unprefixed table',
  );
};

describe("the loop's own tables", () => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-loop-tables-'));
  const schema = throwawaySchema();
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await schema.drop();
  });

  it('a loop app leaves only versionary_* tables in its SQLite database', async () => {
    onlyLoopTables(await tablesAfterALoop({ kind: 'sqlite', path: join(dir, 'loop.db') }));
  });

  it('and in its PostgreSQL schema', async () => {
    onlyLoopTables(await tablesAfterALoop({ kind: 'postgres', url: sharedPostgresUrl, schema: schema.name }));
  });

  it('the gateway creates only versionary_* tables too', async () => {
    const gateway = await startTestGateway({ upstream: 'http://127.0.0.1:9' });
    try {
      const place: Place = { kind: 'sqlite', path: join(gateway.dir, 'gateway.db') };
      const db = await rawDb(place);
      try {
        onlyLoopTables(await tablesOf(db, place));
      } finally {
        await db.destroy();
      }
    } finally {
      await gateway.stop();
    }
  });

  it('the reference service keeps its users and posts, in tables and a history of their own', async () => {
    const path = join(dir, 'reference.db');
    const t = await createTestApp({ databasePath: path });
    try {
      const user = await createUser(t.app, { body: { name: 'Ada' } });
      const post = await t.app.inject({
        method: 'POST',
        url: `/api/v2/users/${user.id}/posts`,
        payload: { title: 'Hello', body: 'First post.' },
      });
      assert.equal(post.statusCode, 201, post.body);
      assert.equal(json<{ title: string }>(post).title, 'Hello');
      const tables = await tablesOf(t.db as never, { kind: 'sqlite', path });
      assert.deepEqual(
        tables.filter((name) => !name.startsWith('versionary_')),
        ['posts', 'reference_migration', 'reference_migration_lock', 'users'],
      );
    } finally {
      await t.close();
    }
  });
});
