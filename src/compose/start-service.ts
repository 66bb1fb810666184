import type { FastifyInstance } from 'fastify';
import { buildApp } from '../service/app/build-app.ts';
import { loadConfig, type LoadConfigOptions } from '../service/config/load-config.ts';
import { openStorage } from './open-storage.ts';
import { Redis } from 'ioredis';
import { createRedisRateLimitStore } from '../storage/redis/redis-rate-limit-store.ts';

/**
 * Start the service: parse config, open and migrate storage, build the app, listen, and close
 * gracefully on SIGTERM/SIGINT.
 *
 * @example
 * ```ts
 * await startService({ env: process.env, readFile: (p) => readFileSync(p, 'utf8') });
 * ```
 */
export async function startService(options: LoadConfigOptions): Promise<FastifyInstance> {
  const config = loadConfig(options);
  const storage = await openStorage(config.database);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 }) : undefined;
  if (redis) await redis.connect();
  const app = await buildApp({
    config, storage, clock: { now: Date.now },
    ...(redis ? { rateLimitStore: createRedisRateLimitStore({ redis }) } : {}),
    onBootstrapKey: (key) => process.stdout.write(`\nversionary: created the first admin API key. It is shown only this once; store it now:\n\n  ${key}\n\n`),
  });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Storage closes after the app, so onClose hooks (the usage flush) still have a database.
    app.close().then(() => storage.close()).then(() => redis?.quit()).then(() => process.exit(0), (error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  return app;
}
