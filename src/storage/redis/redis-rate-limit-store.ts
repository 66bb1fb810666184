import type { Redis } from 'ioredis';
import type { RateLimitHit, RateLimitHitOptions, RateLimitStore } from '../../kernel/ports/rate-limit.ts';

export interface RedisRateLimitStoreOptions {
  /** A connected client; the caller owns it and closes it. */
  redis: Redis;
  /** Prepended to every key, so the limiter shares a database safely. Defaults to `versionary:rate-limit:`. */
  prefix?: string;
}

// One round trip, atomic: INCR opens or counts the window, and a key without an expiry gets one.
// That is the first hit of a window, and also a key written by hand, which would otherwise count
// for ever.
const hitScript = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/**
 * A {@link RateLimitStore} in Redis, shared by every instance of the service. Redis expires the
 * windows, so nothing is swept here. Windows run on Redis's clock; `resetAt` is the caller's `now`
 * plus the key's remaining PTTL, so the reset the client is told stays relative to the response.
 */
export function createRedisRateLimitStore(options: RedisRateLimitStoreOptions): RateLimitStore {
  const prefix = options.prefix ?? 'versionary:rate-limit:';
  return {
    async hit({ key, windowMs, now }: RateLimitHitOptions): Promise<RateLimitHit> {
      const reply = await options.redis.eval(hitScript, 1, `${prefix}${key}`, String(windowMs));
      if (!Array.isArray(reply) || reply.length !== 2)
        throw new Error(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
      const [count, ttl] = reply.map(Number) as [number, number];
      return { count, resetAt: now + ttl };
    },
    async peek({ key, now }: { key: string; now: number }): Promise<RateLimitHit | undefined> {
      const replies = await options.redis.multi().get(`${prefix}${key}`).pttl(`${prefix}${key}`).exec();
      if (!replies || replies.length !== 2) throw new Error('the rate-limit peek transaction was aborted');
      const failed = replies.find(([error]) => error)?.[0];
      if (failed) throw failed;
      const [count, ttl] = [replies[0]![1], replies[1]![1]];
      if (count === null || Number(ttl) <= 0) return undefined;
      return { count: Number(count), resetAt: now + Number(ttl) };
    },
  };
}
