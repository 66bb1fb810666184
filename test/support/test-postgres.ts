import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Storage } from '../../src/kernel/ports/index.ts';
import type { Tables } from '../../src/storage/kysely/tables.ts';
import { openPostgresStorage } from '../../src/storage/postgres/open-postgres-storage.ts';

/** `sqlite` (default) or `postgres`: the database `createTestApp` opens (`VERSIONARY_TEST_DATABASE`). */
export const testDatabase = process.env.VERSIONARY_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
const url = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Open storage on a fresh schema of the machine's PostgreSQL; closing the storage drops the schema. */
export async function openTestPostgres(): Promise<Storage & { db: Kysely<Tables> }> {
  const schema = `vhttp_${randomBytes(6).toString('hex')}`;
  const storage = await openPostgresStorage({ url, schema, max: 4 });
  return {
    ...storage,
    close: async () => {
      await storage.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
