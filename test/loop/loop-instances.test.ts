import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { loopServerOptions, versionaryLoop } from '../../src/loop/index.ts';
import { eventually, sharedPostgresUrl, sharedRedisUrl, throwawaySchema } from '../support/service-process.ts';
import { booksBundle, booksLoop } from './books.ts';

const adminKey = 'loop-instances-admin-key-0123456789';
const admin = { authorization: `Bearer ${adminKey}` };

// Two instances of a team's app on one PostgreSQL schema and one Redis: what one changes, the
// other applies at once, through the change feed, not at its next reconcile.
for (const transport of ['PostgreSQL LISTEN/NOTIFY', 'Redis pub/sub']) {
  describe(`versionaryLoop on two instances, change feed over ${transport}`, () => {
    const schema = throwawaySchema();
    const apps: FastifyInstance[] = [];
    before(async () => {
      const env = {
        DATABASE_URL: sharedPostgresUrl,
        VERSIONARY_DB_SCHEMA: schema.name,
        LOG_LEVEL: 'silent',
        VERSIONARY_ADMIN_KEY: adminKey,
        // A reconcile far away: only the feed can carry the change in time.
        VERSIONARY_RECONCILE_MS: '600000',
        ...(transport === 'Redis pub/sub'
          ? { VERSIONARY_REDIS_URL: sharedRedisUrl, VERSIONARY_REDIS_PREFIX: `loop-${randomBytes(4).toString('hex')}:` }
          : {}),
      };
      for (let i = 0; i < 2; i++) {
        const app = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books' }) });
        await app.register(versionaryLoop, {
          ...booksLoop,
          env,
          settings: { notices: { intervalSeconds: 0 } },
        });
        await app.ready();
        apps.push(app);
      }
    });
    after(async () => {
      for (const app of apps) await app.close();
      await schema.drop();
    });

    it('a key revoked on one instance is refused by the other within a second', async () => {
      const [a, b] = apps as [FastifyInstance, FastifyInstance];
      const created = await a.inject({
        method: 'POST',
        url: '/admin/v1/api-keys',
        headers: admin,
        payload: { name: 'k', roles: ['read'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      const key = { authorization: `Bearer ${created.json().key}` };
      assert.equal(
        (await b.inject({ url: '/api/v2/books', headers: key })).statusCode,
        200,
        'B knows the key (and caches it)',
      );
      assert.equal(
        (await a.inject({ method: 'DELETE', url: `/admin/v1/api-keys/${created.json().id}`, headers: admin }))
          .statusCode,
        204,
      );
      const ms = await eventually(
        async () => (await b.inject({ url: '/api/v2/books', headers: key })).statusCode === 401,
        3000,
      );
      assert.ok(ms < 1500, `B refused the revoked key after ${ms} ms`);
    });
  });
}
