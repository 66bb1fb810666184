import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { createPostgresChangeFeed } from '../../src/storage/change-feed/postgres-change-feed.ts';
import { createMigrationProvider } from '../../src/storage/kysely/migrations/index.ts';
import { openPostgresStorage } from '../../src/storage/postgres/open-postgres-storage.ts';
import { sharedPostgresUrl, throwawaySchema } from '../support/service-process.ts';

const quiet = { warn: () => {}, info: () => {} };

describe('PostgreSQL operations', () => {
  const schemas: Array<ReturnType<typeof throwawaySchema>> = [];
  after(async () => {
    for (const s of schemas) await s.drop();
  });

  it('three instances starting together on an empty schema migrate it once, without error', async () => {
    const schema = throwawaySchema();
    schemas.push(schema);
    const opened = await Promise.all(
      [0, 1, 2].map(() => openPostgresStorage({ url: sharedPostgresUrl, schema: schema.name, max: 2 })),
    );
    const client = new pg.Client({ connectionString: sharedPostgresUrl });
    await client.connect();
    const { rows } = await client.query(`SELECT name FROM ${schema.name}.versionary_migration ORDER BY name`);
    await client.end();
    const expected = Object.keys(await createMigrationProvider({ serial: 'serial' }).getMigrations()).sort();
    assert.deepEqual(
      rows.map((r) => r.name),
      expected,
      'each migration recorded exactly once',
    );
    for (const storage of opened) {
      await storage.ping!();
      await storage.close();
    }
  });

  it('a transient database error is STORAGE_UNAVAILABLE, a bug stays a plain error', async () => {
    const schema = throwawaySchema();
    schemas.push(schema);
    const storage = await openPostgresStorage({ url: sharedPostgresUrl, schema: schema.name, max: 2 });
    // The table vanishes under the service (a restore in progress): 503, not 500.
    const client = new pg.Client({ connectionString: sharedPostgresUrl });
    await client.connect();
    await client.query(`DROP TABLE ${schema.name}.versionary_api_keys`);
    await client.end();
    await assert.rejects(
      storage.apiKeys.find('key_0000000000000000'),
      (error: Error & { code?: string; headers?: Record<string, string> }) => {
        assert.equal(error.code, 'STORAGE_UNAVAILABLE');
        assert.equal(error.headers?.['retry-after'], '2');
        return true;
      },
    );
    await storage.close();
  });

  it('LISTEN/NOTIFY carries a change to another instance within 1 s, and not back to its sender', async () => {
    const channel = `versionary_vtest_feed_${Date.now()}`;
    const a = await createPostgresChangeFeed({ url: sharedPostgresUrl, channel, log: quiet });
    const b = await createPostgresChangeFeed({ url: sharedPostgresUrl, channel, log: quiet });
    assert.equal(b.health().healthy, true);
    let onA = 0;
    a.subscribe('clients', () => {
      onA++;
    });
    const received = new Promise<number>((resolve) => {
      const started = Date.now();
      b.subscribe('clients', () => resolve(Date.now() - started));
    });
    await a.publish('clients');
    const ms = await received;
    assert.ok(ms <= 1000, `delivered after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(onA, 1, 'the sender hears its own change once (locally), not again over the channel');
    await a.close();
    await b.close();
  });
});
