import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/** Migration `0004-idempotency-keys`: stored `Idempotency-Key` outcomes, replayed for repeated writes. */
export function idempotencyKeys(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'idempotency_keys'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('headers', 'text')
        .addColumn('body', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint(named(dialect, 'idempotency_keys_pk'), ['client_id', 'key'])
        .execute();
      await db.schema
        .createIndex(named(dialect, 'idempotency_keys_created'))
        .on(named(dialect, 'idempotency_keys'))
        .column('created_at')
        .execute();
    },
  };
}
