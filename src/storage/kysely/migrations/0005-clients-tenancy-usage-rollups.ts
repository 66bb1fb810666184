import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/** The rollup tables share their value columns, so one upsert serves them all. */
const rollupTables = {
  usage_minutes: ['minute', 'version', 'endpoint', 'client_id', 'key_id'],
  usage_days: ['day', 'version', 'endpoint', 'client_id', 'key_id'],
  usage_client_days: ['day', 'version', 'client_id'],
  usage_totals: ['version', 'endpoint', 'client_id', 'key_id'],
} as const;

function rollupColumns<T extends string>(table: CreateTableBuilder<T>, keys: readonly string[]): CreateTableBuilder<T> {
  let builder = table;
  for (const key of keys) {
    const isInstant = key === 'minute' || key === 'day';
    // '' rather than NULL for "no key": NULLs are distinct in a unique index, which defeats the upsert.
    builder = builder.addColumn(key, isInstant ? 'bigint' : 'text', (c) =>
      key === 'key_id' ? c.notNull().defaultTo('') : c.notNull(),
    );
  }
  return builder
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addColumn('first_seen', 'bigint', (c) => c.notNull())
    .addColumn('last_seen', 'bigint', (c) => c.notNull())
    .addColumn('user_agent', 'text');
}

/**
 * Clients with their contacts and webhooks; the owning client of API keys, users and posts; and
 * usage rollups (per minute, per day, per client and day, totals), backfilled from the raw calls.
 */
export function clientsTenancyAndUsageRollups(dialect: MigrationDialect): Migration {
  const t = (name: string) => sql.table(named(dialect, name));
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'clients'))
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex(named(dialect, 'clients_created'))
        .on(named(dialect, 'clients'))
        .columns(['created_at', 'id'])
        .execute();
      await db.schema
        .createTable(named(dialect, 'client_contacts'))
        .addColumn('client_id', 'text', (c) =>
          c
            .notNull()
            .references(`${named(dialect, 'clients')}.id`)
            .onDelete('cascade'),
        )
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('subscribed', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint(named(dialect, 'client_contacts_pk'), ['client_id', 'email'])
        .execute();
      await db.schema
        .createTable(named(dialect, 'client_webhooks'))
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) =>
          c
            .notNull()
            .references(`${named(dialect, 'clients')}.id`)
            .onDelete('cascade'),
        )
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex(named(dialect, 'client_webhooks_client'))
        .on(named(dialect, 'client_webhooks'))
        .columns(['client_id', 'position'])
        .execute();

      await db.schema.alterTable(named(dialect, 'api_keys')).addColumn('client_id', 'text').execute();
      // Users and posts were in this history before the loop's tables had a prefix; they are the
      // reference service's own now (`reference-migrations.ts`), created with this column.
      if (dialect.layout === 'legacy') {
        await db.schema.alterTable('users').addColumn('client_id', 'text').execute();
        await db.schema.alterTable('posts').addColumn('client_id', 'text').execute();
        await db.schema.createIndex('users_client').on('users').columns(['client_id', 'id']).execute();
      }

      for (const [table, keys] of Object.entries(rollupTables)) {
        await rollupColumns(db.schema.createTable(named(dialect, table)), keys)
          .addPrimaryKeyConstraint(named(dialect, `${table}_pk`), [...keys] as never)
          .execute();
      }
      await db.schema
        .createIndex(named(dialect, 'usage_calls_at'))
        .on(named(dialect, 'usage_calls'))
        .column('at')
        .execute();
      // One client's usage (the portal, a client's notices) without scanning every client's rows.
      await db.schema
        .createIndex(named(dialect, 'usage_days_client'))
        .on(named(dialect, 'usage_days'))
        .columns(['client_id', 'day'])
        .execute();
      await db.schema
        .createIndex(named(dialect, 'usage_client_days_client'))
        .on(named(dialect, 'usage_client_days'))
        .columns(['client_id', 'day'])
        .execute();
      await db.schema
        .createIndex(named(dialect, 'usage_minutes_client'))
        .on(named(dialect, 'usage_minutes'))
        .columns(['client_id', 'minute'])
        .execute();
      // Calls recorded before this migration were keyed by the credential id: it is both client and key.
      await sql`INSERT INTO ${t('usage_minutes')} (minute, version, endpoint, client_id, key_id, calls, first_seen, last_seen)
      SELECT (at / 60000) * 60000, version, endpoint, client_id, client_id, COUNT(*), MIN(at), MAX(at) FROM ${t('usage_calls')}
      GROUP BY (at / 60000) * 60000, version, endpoint, client_id`.execute(db);
      await sql`INSERT INTO ${t('usage_days')} (day, version, endpoint, client_id, key_id, calls, first_seen, last_seen)
      SELECT (minute / 86400000) * 86400000, version, endpoint, client_id, key_id, SUM(calls), MIN(first_seen), MAX(last_seen) FROM ${t('usage_minutes')}
      GROUP BY (minute / 86400000) * 86400000, version, endpoint, client_id, key_id`.execute(db);
      await sql`INSERT INTO ${t('usage_client_days')} (day, version, client_id, calls, first_seen, last_seen)
      SELECT day, version, client_id, SUM(calls), MIN(first_seen), MAX(last_seen) FROM ${t('usage_days')} GROUP BY day, version, client_id`.execute(
        db,
      );
      await sql`INSERT INTO ${t('usage_totals')} (version, endpoint, client_id, key_id, calls, first_seen, last_seen)
      SELECT version, endpoint, client_id, key_id, SUM(calls), MIN(first_seen), MAX(last_seen) FROM ${t('usage_days')} GROUP BY version, endpoint, client_id, key_id`.execute(
        db,
      );
    },
  };
}
