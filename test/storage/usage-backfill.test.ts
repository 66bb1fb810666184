import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import Database from 'libsql';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import pg from 'pg';
import { createMigrationProvider, loopMigrationTables } from '../../src/storage/kysely/migrations/index.ts';
import { SchemaPostgresDialect } from '../../src/storage/postgres/open-postgres-storage.ts';
import type { Tables } from '../../src/storage/kysely/tables.ts';
import { createUsageStore } from '../../src/storage/kysely/usage-store.ts';

const url = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const t0 = Date.UTC(2026, 0, 10, 8, 30);

/** Calls recorded before the rollups existed must be in them after the upgrade. */
async function upgradeKeepsUsage(db: Kysely<Tables>, options: { serial: 'integer' | 'serial'; schema?: string }) {
  const migrator = new Migrator({
    db,
    provider: createMigrationProvider({ serial: options.serial }),
    ...loopMigrationTables,
    ...(options.schema ? { migrationTableSchema: options.schema } : {}),
  });
  assert.equal((await migrator.migrateTo('0004-idempotency-keys')).error, undefined);
  const calls = [
    { version: 'v1', endpoint: 'GET /users', client_id: 'key_a', at: t0 },
    { version: 'v1', endpoint: 'GET /users', client_id: 'key_a', at: t0 + 30_000 },
    { version: 'v1', endpoint: 'GET /users', client_id: 'key_a', at: t0 + 86_400_000 },
    { version: 'v1', endpoint: 'POST /users', client_id: 'key_b', at: t0 + 5_000 },
  ];
  await db.insertInto('versionary_usage_calls').values(calls).execute();
  assert.equal((await migrator.migrateToLatest()).error, undefined);
  const usage = createUsageStore(db);
  assert.deepEqual(await usage.summary('v1'), { calls: 4, clients: 2, endpoints: 2 });
  assert.deepEqual(await usage.byClient({ since: t0 + 60_000 }), [
    {
      clientId: 'key_a',
      version: 'v1',
      endpoint: 'GET /users',
      keyId: 'key_a',
      calls: 1,
      firstSeen: t0 + 86_400_000,
      lastSeen: t0 + 86_400_000,
    },
  ]);
  assert.deepEqual(
    (await usage.byDay({ since: t0 })).map((r) => [r.calls, r.clients]),
    [
      [3, 2],
      [1, 1],
    ],
  );
  assert.equal(
    (await usage.list({ version: 'v1', limit: 10, afterId: 0 })).items.length,
    4,
    'raw events stay, under their retention',
  );
}

describe('migration 0005 on a database with recorded usage', () => {
  it('fills the rollups from the raw calls on SQLite', async () => {
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new Database(':memory:') as never }) });
    await upgradeKeepsUsage(db, { serial: 'integer' });
    await db.destroy();
  });

  it('fills the rollups from the raw calls on PostgreSQL', async () => {
    const schema = `vtest_${randomBytes(6).toString('hex')}`;
    const pool = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${schema}` });
    const db = new Kysely<Tables>({ dialect: new SchemaPostgresDialect({ pool, schema }) });
    try {
      await db.schema.createSchema(schema).execute();
      await upgradeKeepsUsage(db, { serial: 'serial', schema });
    } finally {
      await db.schema.dropSchema(schema).ifExists().cascade().execute();
      await db.destroy();
    }
  });
});
