import type { Redis } from 'ioredis';

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
