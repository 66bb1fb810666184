import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyRecord, ApiKeyStore } from '../../kernel/ports/index.ts';
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
    async insert(r) {
      await db
        .insertInto('versionary_api_keys')
        .values({
          id: r.id,
          name: r.name,
          roles: JSON.stringify(r.roles),
          contact: r.contact,
          key_hash: r.hash,
          created_at: r.createdAt,
          revoked_at: r.revokedAt,
          client_id: r.clientId ?? null,
        })
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

function toRecord(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    roles: JSON.parse(row.roles) as string[],
    contact: row.contact,
    hash: row.key_hash,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    ...(row.client_id ? { clientId: row.client_id } : {}),
  };
}
