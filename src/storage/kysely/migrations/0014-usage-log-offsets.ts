import type { Kysely, Migration } from 'kysely';
import { named, type MigrationDialect } from './dialect.ts';

/**
 * Where the control plane stands in each access log it reads (nginx's usage log): the file by
 * device and inode, the byte offset of the first line not yet counted, and the lease that lets one
 * reader at a time read a path. The offset is written in the same transaction as the usage rows
 * of the lines before it.
 */
export function usageLogOffsets(dialect: MigrationDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(named(dialect, 'usage_log_offsets'))
        .addColumn('path', 'text', (c) => c.primaryKey())
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('inode', 'text', (c) => c.notNull())
        .addColumn('byte_offset', 'bigint', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
