import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/compose/build-app.ts';
import { referenceProduct } from '../../src/reference/product.ts';
import { loadConfig } from '../../src/loop/settings.ts';
import type { Storage } from '../../src/kernel/ports/index.ts';
import { openPostgresStorage } from '../../src/storage/postgres/open-postgres-storage.ts';
import { createClient, createKey } from '../clients/support.ts';
import { testEpoch } from '../support/test-app.ts';

// Two service instances on one PostgreSQL schema, as behind a load balancer: each counts the
// calls it serves in memory, and their writes of the same hours and keys add up.
const url = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `vtest_${randomBytes(6).toString('hex')}`;
const adminKey = 'test-admin-key-0123456789';
const admin = { authorization: `Bearer ${adminKey}` };

after(async () => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

async function instance(): Promise<{ app: FastifyInstance & { flushUsage(): Promise<void> }; storage: Storage }> {
  const storage = await openPostgresStorage({ url, schema, max: 4 });
  const config = loadConfig({
    env: { DATABASE_URL: url, LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: adminKey, VERSIONARY_CONFIG: '/c.json' },
    readFile: () => JSON.stringify({ rateLimit: { max: 1_000_000, windowSeconds: 60 } }),
  });
  const app = await buildApp({
    product: referenceProduct(),
    config,
    storage,
    clock: { now: () => testEpoch + 1_800_000 },
  });
  return { app, storage };
}

describe('operation counts of two instances on one PostgreSQL schema', () => {
  it('add up, whichever instance served the calls and whenever each writes', async () => {
    const a = await instance();
    const b = await instance();
    const acme = await createClient(a.app, { name: 'Acme', contacts: ['dev@acme.test'] });
    const key = await createKey(a.app, { name: 'acme', roles: ['read'], clientId: acme.id });
    const calls = async (app: FastifyInstance, n: number) => {
      for (let i = 0; i < n; i++) {
        for (const path of ['/api/v1/users', '/api/v2/users']) {
          const res = await app.inject({ url: path, headers: key.headers });
          assert.equal(res.statusCode, 200, res.body);
        }
      }
    };
    await Promise.all([calls(a.app, 7), calls(b.app, 5)]);
    // Both write the same keys at once: the upserts add, and cannot deadlock (rows in one order).
    await Promise.all([a.app.flushUsage(), b.app.flushUsage()]);
    await Promise.all([calls(a.app, 2), calls(b.app, 3)]);
    // B's last calls reach the database when it shuts down; A's when its usage API answers.
    await b.app.close();
    await b.storage.close();
    const res = await a.app.inject({ url: `/admin/v1/usage/operations?client=${acme.id}`, headers: admin });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      res
        .json()
        .data.map((r: { version: string; endpoint: string; calls: number }) => [r.version, r.endpoint, r.calls]),
      [
        ['v1', 'GET /users', 17],
        ['v2', 'GET /users', 17],
      ],
    );
    await a.app.close();
    await a.storage.close();
  });
});
