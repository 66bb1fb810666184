/**
 * The reference service in a child process, for the benchmarks and the load test: `buildApp` over
 * a fresh SQLite file with silent logs, a known admin key and the config file given in
 * `BENCH_CONFIG`; it seeds `BENCH_SEED` users and creates the API keys of `BENCH_KEYS` before it
 * listens, then speaks the protocol of `protocol.ts` over IPC.
 *
 * `BENCH_LOG_LEVEL=info` turns the request log on (the parent sends it to /dev/null), to price it.
 * `BENCH_REDIS_URL` keeps the rate-limit counters in Redis.
 * `BENCH_RECORD_USAGE=off` builds the app with `recordUsage: false`, to measure what recording costs.
 */
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { serveIpc } from './child.ts';
import { seededUser, type BenchKeySpec } from './protocol.ts';
import { built } from './built.ts';

const { buildApp } = await built<typeof import('../../src/compose/build-app.ts')>('compose/build-app');
const { referenceProduct } = await built<typeof import('../../src/reference/product.ts')>('reference/product');
const { createApiKey } =
  await built<typeof import('../../src/loop/access/auth/api-keys.ts')>('loop/access/auth/api-keys');
const { loadConfig } = await built<typeof import('../../src/loop/settings.ts')>('loop/settings');
const { openSqliteStorage } = await built<typeof import('../../src/storage/sqlite/open-sqlite-storage.ts')>(
  'storage/sqlite/open-sqlite-storage',
);
const { createRedisRateLimitStore } = await built<typeof import('../../src/storage/redis/redis-rate-limit-store.ts')>(
  'storage/redis/redis-rate-limit-store',
);

const env = process.env;
const databasePath = env.BENCH_DB ?? ':memory:';
const configFile = 'bench-config.json';
const config = loadConfig({
  env: {
    DATABASE_URL: `sqlite:${databasePath}`,
    LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    VERSIONARY_ADMIN_KEY: env.BENCH_ADMIN_KEY ?? 'bench-admin-key-0123456789',
    VERSIONARY_CONFIG: configFile,
  },
  readFile: (path) => {
    if (path !== configFile) throw Object.assign(new Error(`no file ${path}`), { code: 'ENOENT' });
    return env.BENCH_CONFIG ?? '{}';
  },
});
const storage = await openSqliteStorage({ path: databasePath });
const { users } = await storage.resources();
const clock = { now: Date.now };
const seed = Number(env.BENCH_SEED ?? '0');
const at = new Date(clock.now()).toISOString();
for (let n = 1; n <= seed; n++) {
  await users.create({ values: { ...seededUser(n), nickname: null, status: 'active' }, at });
}
const keys: Record<string, string> = {};
for (const spec of JSON.parse(env.BENCH_KEYS ?? '[]') as BenchKeySpec[]) {
  keys[spec.name] = (
    await createApiKey({ store: storage.apiKeys, name: spec.name, roles: spec.roles, now: clock.now() })
  ).key;
}
// `BENCH_REDIS_URL`: rate-limit counters in Redis (a unique prefix), to price the round trip.
const redis = env.BENCH_REDIS_URL ? new Redis(env.BENCH_REDIS_URL) : undefined;
const prefix = `vbench:${process.pid}:${Date.now()}:`;
const rateLimitStore = redis ? createRedisRateLimitStore({ redis, prefix }) : undefined;
const app = await buildApp({
  product: referenceProduct(),
  config,
  storage,
  clock,
  ...(rateLimitStore ? { rateLimitStore } : {}),
  ...(env.BENCH_RECORD_USAGE === 'off' ? { recordUsage: false } : {}),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
serveIpc({
  port: typeof address === 'object' && address ? address.port : 0,
  keys,
  countUsers: () => users.count(),
  stop: async () => {
    await app.close();
    await storage.close();
    if (redis) {
      const left = await redis.keys(`${prefix}*`);
      if (left.length > 0) await redis.del(...left);
      await redis.quit();
    }
    if (databasePath !== ':memory:')
      for (const suffix of ['', '-wal', '-shm']) rmSync(databasePath + suffix, { force: true });
  },
});
