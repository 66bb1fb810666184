import type { Kysely, Migration } from 'kysely';
import { named, serialKey, type MigrationDialect } from './dialect.ts';

/**
 * The notice outbox: one row per (client, subject, kind, step, sunset, channel, recipient), with
 * its delivery state and lease. Due rows are found by (status, next attempt). Also the planned
 * brownouts (global, or a rehearsal for one client).
 */
export function noticeOutbox(dialect: MigrationDialect): Migration {
  const key = serialKey(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'notice_outbox'))
        .addColumn('id', dialect.serial, key)
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('step', 'text', (c) => c.notNull())
        .addColumn('sunset_at', 'bigint', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addUniqueConstraint(named(dialect, 'notice_outbox_once'), [
          'client_id',
          'subject',
          'kind',
          'step',
          'sunset_at',
          'channel',
          'recipient',
        ])
        .execute();
      await db.schema
        .createIndex(named(dialect, 'notice_outbox_due'))
        .on(named(dialect, 'notice_outbox'))
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createTable(named(dialect, 'brownouts'))
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text')
        .addColumn('starts_at', 'bigint', (c) => c.notNull())
        .addColumn('ends_at', 'bigint', (c) => c.notNull())
        .addColumn('client_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex(named(dialect, 'notice_outbox_client'))
        .on(named(dialect, 'notice_outbox'))
        .columns(['client_id', 'id'])
        .execute();
    },
  };
}
