import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { buildApp } from '../../src/compose/build-app.ts';
import { referenceProduct } from '../../src/reference/product.ts';
import { loadConfig } from '../../src/loop/settings.ts';
import { openPostgresStorage } from '../../src/storage/postgres/open-postgres-storage.ts';
import { runStorageContract } from './contract.ts';

// The machine's PostgreSQL (trust auth); each run works in schemas of its own and drops them.
const url = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schemas: string[] = [];
const fresh = () => {
  const schema = `vtest_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  return openPostgresStorage({ url, schema, max: 4 });
};

after(async () => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

runStorageContract('postgresql', fresh);

describe('the service on PostgreSQL', () => {
  it('serves both versions over HTTP', async () => {
    const storage = await fresh();
    const config = loadConfig({
      env: { DATABASE_URL: url, LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: 'pg-test-admin-key-000' },
      readFile: () => '',
    });
    const app = await buildApp({
      product: referenceProduct(),
      config,
      storage,
      clock: { now: () => Date.UTC(2026, 0, 1) },
    });
    const auth = { authorization: 'Bearer pg-test-admin-key-000' };
    const created = await app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: auth,
      payload: { name: 'Ada', status: 'pending' },
    });
    assert.equal(created.statusCode, 201);
    const v1 = await app.inject({ url: '/api/v1/users', headers: auth });
    assert.deepEqual(v1.json(), [{ id: 1, name: 'Ada', status: 'inactive' }]);
    assert.ok(v1.headers.deprecation);
    await app.close();
    await storage.close();
  });
});
