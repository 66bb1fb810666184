import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createInProcessChangeFeed } from '../../kernel/change-feed/in-process-feed.ts';
import type { LoopConfig as ServiceConfig } from '../host/config.ts';
import type { ReadinessCheck } from '../../kernel/ops/probes.ts';
import type { ChangeFeed } from '../../kernel/ports/index.ts';
import type { FallbackRateLimitStore } from '../../kernel/ports/rate-limit.ts';
import { createFallbackRateLimitStore } from '../../kernel/rate-limit/fallback-store.ts';
import { createMemoryRateLimitStore } from '../../kernel/rate-limit/memory-store.ts';
import { createRedisChangeFeed } from '../../storage/change-feed/redis-change-feed.ts';
import { createRedisRateLimitStore } from '../../storage/redis/redis-rate-limit-store.ts';

/** What instances share besides the database: the change feed, and the rate-limit windows in Redis. */
export interface SharedState {
  feed: ChangeFeed;
  redis?: Redis;
  /** Redis windows with a local fallback, when Redis is configured; else each instance counts in memory. */
  rateLimitStore?: FallbackRateLimitStore;
  readinessChecks: ReadinessCheck[];
}

/**
 * Connect Redis when `VERSIONARY_REDIS_URL` is set, and open the change feed: Redis pub/sub with
 * Redis, else PostgreSQL LISTEN/NOTIFY, else in-process (SQLite, one process).
 */
export async function openSharedState(options: {
  config: ServiceConfig;
  log: Logger;
  redis?: Redis;
}): Promise<SharedState> {
  const { config, log } = options;
  const redis = options.redis ?? (config.redisUrl ? await connectRedis({ url: config.redisUrl, log }) : undefined);
  const feed = redis
    ? createRedisChangeFeed({ redis, channel: `${config.ops.redisPrefix}changes`, log })
    : config.database.kind === 'postgres'
      ? await (
          await import('../../storage/change-feed/postgres-change-feed.ts')
        ).createPostgresChangeFeed({ url: config.database.url, channel: `versionary_${config.ops.dbSchema}`, log })
      : createInProcessChangeFeed();
  const rateLimitStore = redis
    ? createFallbackRateLimitStore({
        primary: createRedisRateLimitStore({ redis, prefix: `${config.ops.redisPrefix}rate-limit:` }),
        fallback: createMemoryRateLimitStore(),
        timeoutMs: config.ops.redisTimeoutMs,
        log,
      })
    : undefined;
  return {
    feed,
    ...(redis ? { redis } : {}),
    ...(rateLimitStore ? { rateLimitStore } : {}),
    readinessChecks: redis ? [{ name: 'redis', check: async () => void (await redis.ping()) }] : [],
  };
}

export async function closeSharedState(shared: SharedState): Promise<void> {
  await shared.feed.close();
  await shared.redis?.quit().catch(() => shared.redis?.disconnect());
}

/**
 * A Redis client that never slows requests down nor ends the process: commands fail at once
 * while disconnected (no offline queue, no retries per request), reconnection runs in the
 * background with capped backoff, and errors go to the log once per outage instead of ioredis's
 * "Unhandled error event" on stderr. `ioredis` is imported here, on first use: only a deployment
 * with `VERSIONARY_REDIS_URL` needs it installed.
 */
export async function connectRedis(options: {
  url: string;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 1000,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 5), 2000),
  });
  let down = false;
  redis.on('error', (error: Error & { code?: string }) => {
    if (down) return;
    down = true;
    options.log.warn(
      { err: { message: error.message, code: error.code } },
      'Redis unavailable; reconnecting in the background',
    );
  });
  redis.on('ready', () => {
    if (down) options.log.info({}, 'Redis reconnected');
    down = false;
  });
  return redis;
}
