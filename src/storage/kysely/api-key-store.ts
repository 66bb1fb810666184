import type { Insertable, Kysely } from 'kysely';
import type { ApiKeyRecord, ApiKeyStore } from '../../kernel/ports/index.ts';
import { asIs, inColumn, json, numeric, rowMapping } from './mapping.ts';
import { precompile } from './precompile.ts';
import type { ApiKeysTable, Tables } from './tables.ts';

/**
 * API keys over Kysely. Lookups are by primary key; the hash comparison happens in the service,
 * in constant time.
 */
export function createApiKeyStore(db: Kysely<Tables>): ApiKeyStore {
  const byId = precompile(db, db.selectFrom('versionary_api_keys').selectAll().where('id', '=', ''), {
    singleRow: true,
  });
  return {
    async insert(record) {
      await db
        .insertInto('versionary_api_keys')
        .values(toRow(record) as Insertable<ApiKeysTable>)
        .execute();
    },
    async find(id) {
      const [row] = await byId([id]);
      return row && toRecord(row);
    },
    async list() {
      return (await db.selectFrom('versionary_api_keys').selectAll().orderBy('created_at').orderBy('id').execute()).map(
        toRecord,
      );
    },
    async revoke({ id, at }) {
      const result = await db
        .updateTable('versionary_api_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async countActiveAdmins() {
      const rows = await db.selectFrom('versionary_api_keys').select('roles').where('revoked_at', 'is', null).execute();
      return rows.filter((r) => (JSON.parse(r.roles) as string[]).includes('admin')).length;
    },
  };
}

const { toRow, fromRow: toRecord } = rowMapping<ApiKeyRecord>({
  id: asIs,
  name: asIs,
  roles: json,
  contact: asIs,
  hash: inColumn('key_hash', asIs),
  createdAt: numeric,
  revokedAt: numeric,
  // An empty client is none, as a null one.
  clientId: {
    toRow: (clientId) => ({ client_id: clientId ?? null }),
    fromRow: (row) => (row.client_id as string | null) || undefined,
  },
});
