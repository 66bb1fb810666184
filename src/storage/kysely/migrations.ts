import { noticeOutboxMigration } from './migration-notices.ts';
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { clientsTenancyAndUsageRollups } from './migration-0005.ts';

/** Dialect facts the shared migrations need. */
export interface MigrationDialect {
  /** Column type of an auto-incrementing primary key. */
  serial: 'integer' | 'serial' | 'bigserial';
}

/**
 * The schema migrations, written once for SQLite and PostgreSQL; run at start in name order.
 *
 * @example
 * ```ts
 * new Migrator({ db, provider: createMigrationProvider({ serial: 'integer' }) });
 * ```
 */
export function createMigrationProvider(dialect: MigrationDialect): MigrationProvider {
  // SQLite needs AUTOINCREMENT so ids are never reused; PostgreSQL's serial types already are.
  const serialKey = (c: ColumnDefinitionBuilder) =>
    dialect.serial === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey();
  const migrations: Record<string, Migration> = {
    '0001-users-and-posts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('users')
          .addColumn('id', dialect.serial, serialKey)
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('email', 'text')
          .addColumn('nickname', 'text')
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('posts')
          .addColumn('id', dialect.serial, serialKey)
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('posts_user_id').on('posts').columns(['user_id', 'id']).execute();
      },
    },
    '0002-lifecycle-and-usage': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('version_schedules')
          .addColumn('version', 'text', (c) => c.primaryKey())
          .addColumn('deprecated_at', 'bigint', (c) => c.notNull())
          .addColumn('sunset_at', 'bigint', (c) => c.notNull())
          .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('reason', 'text', (c) => c.notNull())
          .addColumn('migration_url', 'text')
          .execute();
        await db.schema
          .createTable('endpoint_deprecations')
          .addColumn('version', 'text', (c) => c.notNull())
          .addColumn('method', 'text', (c) => c.notNull())
          .addColumn('path', 'text', (c) => c.notNull())
          .addColumn('deprecated_at', 'bigint', (c) => c.notNull())
          .addColumn('sunset_at', 'bigint', (c) => c.notNull())
          .addColumn('migration_url', 'text')
          .addPrimaryKeyConstraint('endpoint_deprecations_pk', ['version', 'method', 'path'])
          .execute();
        await db.schema
          .createTable('usage_calls')
          .addColumn('id', dialect.serial, serialKey)
          .addColumn('version', 'text', (c) => c.notNull())
          .addColumn('endpoint', 'text', (c) => c.notNull())
          .addColumn('client_id', 'text', (c) => c.notNull())
          .addColumn('at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('usage_calls_version').on('usage_calls').columns(['version', 'id']).execute();
      },
    },
    '0003-api-keys': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('api_keys')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('roles', 'text', (c) => c.notNull())
          .addColumn('contact', 'text')
          .addColumn('key_hash', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('revoked_at', 'bigint')
          .execute();
      },
    },
    '0004-idempotency-keys': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('idempotency_keys')
          .addColumn('client_id', 'text', (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('fingerprint', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('status', 'integer')
          .addColumn('headers', 'text')
          .addColumn('body', 'text')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('idempotency_keys_pk', ['client_id', 'key'])
          .execute();
        await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
      },
    },
    '0005-clients-tenancy-usage-rollups': clientsTenancyAndUsageRollups,
    '0006-notice-outbox': noticeOutboxMigration(dialect, serialKey),
    '0007-bigint-ids': {
      // The API promises ids up to 15 digits (int64), and PostgreSQL's `serial` is int4: a lookup of
      // a larger id failed inside the driver. SQLite's INTEGER is already 64-bit. The ALTER rewrites
      // both tables once, at the start that applies it.
      async up(db: Kysely<unknown>) {
        if (dialect.serial === 'integer') return;
        await sql`ALTER TABLE users ALTER COLUMN id TYPE bigint`.execute(db);
        await sql`ALTER TABLE posts ALTER COLUMN id TYPE bigint, ALTER COLUMN user_id TYPE bigint`.execute(db);
        for (const table of ['users', 'posts']) {
          await sql`DO $$ BEGIN EXECUTE format('ALTER SEQUENCE %s AS bigint', pg_get_serial_sequence(${sql.lit(table)}, 'id')); END $$`.execute(
            db,
          );
        }
      },
    },
  };
  return { getMigrations: async () => migrations };
}
