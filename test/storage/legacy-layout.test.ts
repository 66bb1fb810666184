import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Migrator, sql, type Kysely } from 'kysely';
import type { Storage } from '../../src/kernel/ports/index.ts';
import { openPostgresStorage } from '../../src/storage/postgres/open-postgres-storage.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { migrateLegacy, rawDb, shapeOf, tablesOf, type Place } from '../support/database-shape.ts';

const url = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const t0 = Date.UTC(2026, 0, 10);
const loopHistory = [
  '0002-lifecycle-and-usage',
  '0003-api-keys',
  '0004-idempotency-keys',
  '0005-clients-tenancy-usage-rollups',
  '0006-notice-outbox',
  '0008-element-usage',
  '0009-operation-usage',
  '0010-change-approvals',
  '0011-operation-usage-days',
  '0012-client-exemptions',
  '0013-brownout-targets',
  '0014-usage-log-offsets',
  '0015-exemption-requests',
  '0016-schedule-config-fingerprint',
  '0017-one-exemption-per-subject',
  '0018-client-minimum-version',
  '0019-extended-access-names',
];

/** Rows as a release before the prefix wrote them, in its bare tables. */
async function seedLegacy(db: Kysely<unknown>, options: { resources: boolean }): Promise<void> {
  const raw = db as Kysely<Record<string, Record<string, unknown>>>;
  await raw
    .insertInto('api_keys')
    .values({ id: 'key_legacy', name: 'old key', roles: '["admin"]', contact: null, key_hash: 'h', created_at: t0 })
    .execute();
  await raw
    .insertInto('version_schedules')
    .values({ version: 'v1', deprecated_at: t0, sunset_at: t0 + 86_400_000 * 200, removed: 0, reason: 'planned' })
    .execute();
  if (!options.resources) return;
  await raw.insertInto('clients').values({ id: 'cl_legacy', name: 'Acme', created_at: t0, updated_at: t0 }).execute();
  await raw
    .insertInto('client_contacts')
    .values({ client_id: 'cl_legacy', email: 'ops@acme.test', subscribed: 1, position: 0 })
    .execute();
  await raw
    .insertInto('users')
    .values({
      name: 'Ada',
      status: 'active',
      created_at: '2026-01-10T00:00:00.000Z',
      updated_at: '2026-01-10T00:00:00.000Z',
    })
    .execute();
  await raw
    .insertInto('posts')
    .values({ user_id: 1, title: 'Hello', body: 'First post.', created_at: '2026-01-10T00:00:00.000Z' })
    .execute();
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`a database of the legacy layout (${kind}) opens with its data, in the layout of a fresh one`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'versionary-legacy-'));
    const schemas: string[] = [];
    const place = (name: string): Place => {
      if (kind === 'sqlite') return { kind, path: join(dir, `${name}.db`) };
      const schema = `vlegacy_${name}_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      return { kind, url, schema };
    };
    const open = (p: Place): Promise<Storage> =>
      p.kind === 'sqlite' ? openSqliteStorage({ path: p.path }) : openPostgresStorage({ url: p.url, schema: p.schema });
    /** Look into a place with a connection of its own, then close it. */
    const look = async <T>(p: Place, read: (db: Kysely<unknown>) => Promise<T>): Promise<T> => {
      const db = await rawDb(p);
      try {
        return await read(db);
      } finally {
        await db.destroy();
      }
    };
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      if (schemas.length === 0) return;
      const db = await rawDb({ kind: 'postgres', url, schema: 'public' });
      for (const schema of schemas) await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db);
      await db.destroy();
    });

    it('keeps its keys, clients, schedules, users and posts, with the same shape as a fresh database', async () => {
      const legacy = place('upgraded');
      await look(legacy, async (db) => {
        await migrateLegacy(db, legacy);
        await seedLegacy(db, { resources: true });
      });
      const storage = await open(legacy);
      try {
        assert.equal((await storage.apiKeys.find('key_legacy'))?.name, 'old key');
        assert.deepEqual((await storage.clients.find('cl_legacy'))?.contacts, [
          { email: 'ops@acme.test', subscribed: true },
        ]);
        assert.deepEqual(
          (await storage.lifecycle.listSchedules()).map((s) => [s.version, s.deprecatedAt]),
          [['v1', t0]],
        );
        const { users, posts } = await storage.resources();
        assert.equal((await users.get(1))?.name, 'Ada');
        assert.deepEqual(
          (await posts.list({ userId: 1, limit: 10, afterId: 0 })).items.map((p) => p.title),
          ['Hello'],
        );
        // New rows after the old ones: the sequences came along.
        assert.equal(
          (
            await users.create({
              values: { name: 'Grace', email: null, nickname: null, status: 'active' },
              at: '2026-01-11T00:00:00.000Z',
            })
          ).id,
          2,
        );
      } finally {
        await storage.close();
      }
      const fresh = place('fresh');
      const opened = await open(fresh);
      await opened.resources();
      await opened.close();
      const [upgradedShape, freshShape] = [
        await look(legacy, (db) => shapeOf(db, legacy)),
        await look(fresh, (db) => shapeOf(db, fresh)),
      ];
      assert.deepEqual(upgradedShape, freshShape);
      await look(legacy, async (db) => {
        const tables = await tablesOf(db, legacy);
        assert.ok(!tables.includes('kysely_migration') && !tables.includes('kysely_migration_lock'), tables.join());
        const { rows } = await sql<{ name: string }>`SELECT name FROM versionary_migration ORDER BY name`.execute(db);
        assert.deepEqual(
          rows.map((r) => r.name),
          loopHistory,
        );
      });
    });

    it('finishes a legacy history that stopped part way, then adopts it', async () => {
      const partial = place('partial');
      await look(partial, async (db) => {
        await migrateLegacy(db, partial, '0004-idempotency-keys');
        await seedLegacy(db, { resources: false });
      });
      const storage = await open(partial);
      try {
        assert.equal((await storage.apiKeys.find('key_legacy'))?.clientId ?? null, null);
        assert.equal((await storage.lifecycle.listSchedules()).length, 1);
        await storage.resources();
      } finally {
        await storage.close();
      }
      const fresh = place('fresh2');
      const opened = await open(fresh);
      await opened.resources();
      await opened.close();
      assert.deepEqual(
        await look(partial, (db) => shapeOf(db, partial)),
        await look(fresh, (db) => shapeOf(db, fresh)),
      );
    });

    it("refuses a kysely_migration that holds both the loop's history and an app's, and changes nothing", async () => {
      const mixed = place('mixed');
      await look(mixed, async (db) => {
        await migrateLegacy(db, mixed);
        await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('app-0001-orders', '2026-01-01T00:00:00.000Z')`.execute(
          db,
        );
      });
      await assert.rejects(
        open(mixed),
        /kysely_migration holds Versionary's migrations .* and others \(app-0001-orders\)/,
      );
      await look(mixed, async (db) => {
        const tables = await tablesOf(db, mixed);
        assert.ok(tables.includes('api_keys') && tables.includes('kysely_migration'), tables.join());
        assert.ok(!tables.some((t) => t.startsWith('versionary_')), tables.join());
      });
    });

    it("leaves an app's own kysely_migration and tables alone, and creates only versionary_* tables", async () => {
      const shared = place('shared');
      await look(shared, async (db) => {
        const { error } = await new Migrator({
          db,
          provider: {
            getMigrations: async () => ({
              'app-0001-clients': {
                // The app's own `clients` and `users`: the loop's names must not clash with them.
                up: async (d: Kysely<unknown>) => {
                  await d.schema
                    .createTable('clients')
                    .addColumn('id', 'text', (c) => c.primaryKey())
                    .execute();
                  await d.schema
                    .createTable('users')
                    .addColumn('id', 'text', (c) => c.primaryKey())
                    .execute();
                  await d.schema.createIndex('clients_created').on('clients').column('id').execute();
                },
              },
            }),
          },
          ...(shared.kind === 'postgres' ? { migrationTableSchema: shared.schema } : {}),
        }).migrateToLatest();
        assert.equal(error, undefined);
      });
      const storage = await open(shared);
      await storage.close();
      await look(shared, async (db) => {
        const tables = await tablesOf(db, shared);
        assert.deepEqual(
          tables.filter((t) => !t.startsWith('versionary_')),
          ['clients', 'kysely_migration', 'kysely_migration_lock', 'users'],
        );
        const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
        assert.deepEqual(
          rows.map((r) => r.name),
          ['app-0001-clients'],
        );
      });
    });
  });
}
