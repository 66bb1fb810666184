import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { createFixedClock } from '../../src/core/clock/index.ts';
import { composeGateway } from '../../src/gateway/composition.ts';
import { loadConfig } from '../../src/loop/settings.ts';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { createApiBundle } from '../../src/reference/api/index.ts';
import { buildApp } from '../../src/compose/build-app.ts';
import { referenceProduct } from '../../src/reference/product.ts';
import { referenceHandlers } from '../../src/reference/resources/feature.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';

/** The three ways the product is composed, ready: the reference service, the gateway, a team's loop app. */
export interface ThreeApps {
  service: FastifyInstance;
  gateway: FastifyInstance;
  loop: FastifyInstance;
  close(): Promise<void>;
}

const clock = createFixedClock(Date.UTC(2026, 5, 1));
const env = { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' };
const readFile = (path: string) => readFileSync(path, 'utf8');

/**
 * Build the reference service as `src/server.ts` does, the gateway as the example configures it
 * (in front of an API with the same users routes), and a loop app written as a team writes it
 * (its own Fastify, the preset, its handlers), each on a database in memory.
 */
export async function buildThreeApps(): Promise<ThreeApps> {
  const closers: Array<() => Promise<void>> = [];
  const storage = await openSqliteStorage({ path: ':memory:' });
  closers.push(() => storage.close());
  const service = await buildApp({
    product: referenceProduct(),
    config: loadConfig({ env, readFile: () => '' }),
    storage,
    clock,
  });

  const configPath = new URL('../../examples/gateway/config.json', import.meta.url).pathname;
  const gatewayConfig = loadConfig({ env: { ...env, VERSIONARY_CONFIG: configPath }, readFile });
  const gatewayStorage = await openSqliteStorage({ path: ':memory:' });
  closers.push(() => gatewayStorage.close());
  const product = await composeGateway({ config: gatewayConfig, readFile });
  const gateway = await buildApp({ product, config: gatewayConfig, storage: gatewayStorage, clock });

  const options = {
    bundle: createApiBundle(),
    vendor: 'versionary',
    title: 'Users and posts',
    database: 'sqlite::memory:',
    clock,
    handlers: referenceHandlers,
  };
  const loop = Fastify({ ...loopServerOptions(options), logger: false });
  await loop.register(versionaryLoop, options);
  const apps = { service, gateway, loop };
  for (const app of Object.values(apps)) await app.ready();
  return {
    ...apps,
    close: async () => {
      for (const app of Object.values(apps)) await app.close();
      for (const close of closers) await close();
    },
  };
}
