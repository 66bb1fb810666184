import type { Kysely } from 'kysely';
import type { UsageLogStore } from '../../kernel/ports/index.ts';
import type { Tables } from './tables.ts';
import { writeOperationCounts } from './usage-operations.ts';
import { rawInsertOf, writeUsageCalls } from './usage-store.ts';

/**
 * The usage-log offsets over Kysely (`versionary_usage_log_offsets`). A commit moves the offset
 * first, only while its reader holds the lease (on PostgreSQL that also locks the row, so two
 * commits of one path never interleave), then writes the usage rows, all in one transaction: the
 * rows of a line are in the database exactly when the offset is past it.
 */
export function createUsageLogStore(db: Kysely<Tables>): UsageLogStore {
  const rawInsert = rawInsertOf(db);
  return {
    async position(path) {
      const row = await db
        .selectFrom('versionary_usage_log_offsets')
        .select(['device', 'inode', 'byte_offset'])
        .where('path', '=', path)
        .executeTakeFirst();
      // A row with no file yet is a lease taken before the first commit.
      if (!row || row.inode === '') return undefined;
      return { path, device: row.device, inode: row.inode, offset: Number(row.byte_offset) };
    },
    async lease({ path, owner, now, until }) {
      await db
        .insertInto('versionary_usage_log_offsets')
        .values({
          path,
          device: '',
          inode: '',
          byte_offset: 0,
          lease_owner: owner,
          lease_until: until,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .column('path')
            .doUpdateSet({ lease_owner: owner, lease_until: until })
            .where((eb) =>
              eb.or([
                eb('versionary_usage_log_offsets.lease_owner', 'is', null),
                eb('versionary_usage_log_offsets.lease_owner', '=', owner),
                eb('versionary_usage_log_offsets.lease_until', '<', now),
              ]),
            ),
        )
        .execute();
      const row = await db
        .selectFrom('versionary_usage_log_offsets')
        .select('lease_owner')
        .where('path', '=', path)
        .executeTakeFirst();
      return row?.lease_owner === owner;
    },
    async release({ path, owner }) {
      await db
        .updateTable('versionary_usage_log_offsets')
        .set({ lease_owner: null, lease_until: null })
        .where('path', '=', path)
        .where('lease_owner', '=', owner)
        .execute();
    },
    async commit(batch) {
      const { position } = batch;
      await db.transaction().execute(async (tx) => {
        const moved = await tx
          .updateTable('versionary_usage_log_offsets')
          .set({ device: position.device, inode: position.inode, byte_offset: position.offset, updated_at: Date.now() })
          .where('path', '=', position.path)
          .where('lease_owner', '=', batch.owner)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1)
          throw new Error(`the lease on ${position.path} is held by another reader: nothing written`);
        if (batch.calls.length > 0) await writeUsageCalls(tx, batch.calls, { keepRaw: batch.keepRaw, rawInsert });
        await writeOperationCounts(tx, batch.counts);
      });
    },
  };
}
