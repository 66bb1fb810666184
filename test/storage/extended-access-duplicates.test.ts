import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import Database from 'libsql';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import pg from 'pg';
import { createMigrationProvider, loopMigrationTables } from '../../src/storage/kysely/migrations/index.ts';
import { SchemaPostgresDialect } from '../../src/storage/postgres/open-postgres-storage.ts';
import type { Tables } from '../../src/storage/kysely/tables.ts';
import { createExtendedAccessStore } from '../../src/storage/kysely/audit-stores.ts';

const url = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const t0 = Date.UTC(2026, 0, 10);
const day = 86_400_000;

const row = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  client_id: 'cl_acme',
  subject_kind: 'version',
  version: 'v1',
  method: null,
  path: null,
  element: null,
  until_at: t0 + 30 * day,
  reason: 'Q1',
  granted_by: 'admin',
  granted_at: t0,
  revoked_at: null,
  revoked_by: null,
  ...over,
});

/**
 * Migration 0017 on a database where the same access was granted many times: one grant stays in
 * force per client and subject (the one that reaches furthest), the others are revoked (kept in the
 * trail), and the unique index then refuses a second one.
 */
async function duplicatesResolved(db: Kysely<Tables>, options: { serial: 'integer' | 'serial'; schema?: string }) {
  const migrator = new Migrator({
    db,
    provider: createMigrationProvider({ serial: options.serial }),
    ...loopMigrationTables,
    ...(options.schema ? { migrationTableSchema: options.schema } : {}),
  });
  assert.equal((await migrator.migrateTo('0015-exemption-requests')).error, undefined);
  // The table's name before 0019 gave it extended access's name.
  await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
    .insertInto('versionary_client_exemptions')
    .values([
      row('exm_a'),
      row('exm_b', { until_at: t0 + 60 * day, granted_at: t0 + 1 }),
      row('exm_c', { granted_at: t0 + 2 }),
      row('exm_old', { revoked_at: t0 + 3, revoked_by: 'admin' }),
      row('exm_e1', { subject_kind: 'endpoint', method: 'GET', path: '/users' }),
      row('exm_e2', { subject_kind: 'endpoint', method: 'GET', path: '/users', granted_at: t0 + 5 }),
      row('exm_f', { subject_kind: 'element', element: 'User.nickname' }),
      row('exm_g', { client_id: 'cl_globex' }),
    ])
    .execute();
  assert.equal((await migrator.migrateToLatest()).error, undefined);
  const store = createExtendedAccessStore(db);
  assert.deepEqual(
    (await store.list()).map((e) => e.id).sort(),
    ['exm_b', 'exm_e2', 'exm_f', 'exm_g'],
    'the furthest date kept, then the latest granted',
  );
  const revoked = (await store.list({ includeRevoked: true })).filter((e) => e.revokedAt !== null);
  assert.deepEqual(Object.fromEntries(revoked.map((e) => [e.id, e.revokedBy])), {
    exm_a: 'migration 0017 (duplicate of exm_b)',
    exm_c: 'migration 0017 (duplicate of exm_b)',
    exm_e1: 'migration 0017 (duplicate of exm_e2)',
    exm_old: 'admin',
  });
  // The index itself, not only the store's look before it writes.
  await assert.rejects(db.insertInto('versionary_extended_access_grants').values(row('exm_dup')).execute());
  await db
    .insertInto('versionary_extended_access_grants')
    .values(row('exm_revoked_dup', { revoked_at: t0, revoked_by: 'admin' }))
    .execute();
  const again = await store.insert({
    id: 'exm_h',
    clientId: 'cl_acme',
    subject: { kind: 'version', version: 'v1' },
    until: t0 + 10 * day,
    reason: 'again',
    grantedBy: 'admin',
    grantedAt: t0 + 9,
    revokedAt: null,
    revokedBy: null,
  });
  assert.equal(again?.id, 'exm_b', 'the store answers the grant in force');
}

describe('migration 0017 on a database with duplicate grants', () => {
  it('keeps one grant per client and subject on SQLite', async () => {
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new Database(':memory:') as never }) });
    await duplicatesResolved(db, { serial: 'integer' });
    await db.destroy();
  });

  it('keeps one grant per client and subject on PostgreSQL', async () => {
    const schema = `vtest_${randomBytes(6).toString('hex')}`;
    const pool = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${schema}` });
    const db = new Kysely<Tables>({ dialect: new SchemaPostgresDialect({ pool, schema }) });
    try {
      await db.schema.createSchema(schema).execute();
      await duplicatesResolved(db, { serial: 'serial', schema });
    } finally {
      await db.schema.dropSchema(schema).ifExists().cascade().execute();
      await db.destroy();
    }
  });
});
