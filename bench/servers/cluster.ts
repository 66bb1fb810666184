/**
 * `npm run bench -- cluster`: the reference service as `BENCH_WORKERS` processes sharing one port
 * through `node:cluster`, on one SQLite file in WAL mode (every process opens it; SQLite's own
 * locking serialises writers). The primary seeds the users and the API key before forking, then
 * tells its parent `ready` with the port and key, and stops the workers on `stop`.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { rmSync } from 'node:fs';
import type { ChildMessage, ParentMessage } from './protocol.ts';
import { seededUser } from './protocol.ts';
import { built } from './built.ts';

const { buildApp } = await built<typeof import('../../src/compose/build-app.ts')>('compose/build-app');
const { referenceProduct } = await built<typeof import('../../src/reference/product.ts')>('reference/product');
const { createApiKey } =
  await built<typeof import('../../src/loop/access/auth/api-keys.ts')>('loop/access/auth/api-keys');
const { loadConfig } = await built<typeof import('../../src/loop/settings.ts')>('loop/settings');
const { openSqliteStorage } = await built<typeof import('../../src/storage/sqlite/open-sqlite-storage.ts')>(
  'storage/sqlite/open-sqlite-storage',
);

const env = process.env;
const databasePath = env.BENCH_DB!;
const configFile = 'bench-config.json';

if (cluster.isPrimary) {
  const storage = await openSqliteStorage({ path: databasePath });
  const { users } = await storage.resources();
  const at = new Date().toISOString();
  for (let n = 1; n <= Number(env.BENCH_SEED ?? '1000'); n++)
    await users.create({ values: { ...seededUser(n), nickname: null, status: 'active' }, at });
  const { key } = await createApiKey({
    store: storage.apiKeys,
    name: 'bench',
    roles: ['read', 'write'],
    now: Date.now(),
  });
  await storage.close();
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const workers = Array.from({ length: Number(env.BENCH_WORKERS ?? '1') }, () =>
    cluster.fork({ BENCH_PORT: String(port) }),
  );
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('listening', resolve))));
  process.send?.({ type: 'ready', port, keys: { bench: key } } satisfies ChildMessage);
  const stop = async () => {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve) => {
            w.once('exit', resolve);
            w.kill();
          }),
      ),
    );
    for (const suffix of ['', '-wal', '-shm']) rmSync(databasePath + suffix, { force: true });
    process.exit(0);
  };
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ type: 'cpu', micros: user + system } satisfies ChildMessage);
    } else if (message.type === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
} else {
  const config = loadConfig({
    env: {
      DATABASE_URL: `sqlite:${databasePath}`,
      LOG_LEVEL: 'silent',
      PORT: env.BENCH_PORT!,
      HOST: '127.0.0.1',
      VERSIONARY_ADMIN_KEY: 'bench-admin-key-0123456789',
      VERSIONARY_CONFIG: configFile,
    },
    readFile: (path) => {
      if (path !== configFile) throw Object.assign(new Error(`no file ${path}`), { code: 'ENOENT' });
      return env.BENCH_CONFIG ?? '{}';
    },
  });
  const storage = await openSqliteStorage({ path: databasePath });
  const app = await buildApp({ product: referenceProduct(), config, storage, clock: { now: Date.now } });
  await app.listen({ port: Number(env.BENCH_PORT), host: '127.0.0.1' });
}
