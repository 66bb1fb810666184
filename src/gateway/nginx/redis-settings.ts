import { rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { ServiceConfig } from '../../loop/settings.ts';
import { privateDirOf } from './secret.ts';

/** The Redis nginx counts rate limits in: the one `VERSIONARY_REDIS_URL` names, as Node gateways count. */
export interface NginxRedis {
  host: string;
  port: number;
  db: number;
  username?: string;
  /** Never rendered into the configuration: written to `private/redis-password` (mode 0600). */
  password?: string;
  /** `rediss://`: TLS, the server's certificate verified against the system's CA bundle. */
  ssl: boolean;
  /** Every key's prefix, the Node store's: `VERSIONARY_REDIS_PREFIX` then `rate-limit:`. */
  prefix: string;
  /** A call to Redis slower than this fails (`VERSIONARY_REDIS_TIMEOUT_MS`). */
  timeoutMs: number;
}

/** The Redis of the control plane's config, or `undefined` without `VERSIONARY_REDIS_URL`. */
export function nginxRedisOf(config: Pick<ServiceConfig, 'redisUrl' | 'ops'>): NginxRedis | undefined {
  if (!config.redisUrl) return undefined;
  const url = new URL(config.redisUrl);
  const bare = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // nginx's cosockets resolve names only through a `resolver`: the one name every host knows is
  // rendered as its address.
  const host = bare === 'localhost' || bare === '' ? '127.0.0.1' : bare;
  // As ioredis reads the URL: the database in the path (or `?db=`), AUTH only with a password.
  const db = Number(/^\/(\d+)$/.exec(url.pathname)?.[1] ?? url.searchParams.get('db') ?? 0) || 0;
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  return {
    host,
    port: Number(url.port || 6379),
    db,
    ...(username && password ? { username } : {}),
    ...(password ? { password } : {}),
    ssl: url.protocol === 'rediss:',
    prefix: `${config.ops.redisPrefix}rate-limit:`,
    timeoutMs: config.ops.redisTimeoutMs,
  };
}

export function needsResolver(redis: NginxRedis): boolean {
  return isIP(redis.host) === 0;
}

/** Where the Redis password waits for nginx's master: beside the shared secret, mode 0600. */
export function redisPasswordFileOf(out: string): string {
  return join(privateDirOf(out), 'redis-password');
}

/**
 * Write the password nginx's master reads at start (its folder exists: the shared secret's), or
 * remove the one an earlier render wrote for a Redis that has none.
 */
export function writeRedisPassword(out: string, redis: NginxRedis | undefined): void {
  const file = redisPasswordFileOf(out);
  if (redis?.password === undefined) rmSync(file, { force: true });
  else writeFileSync(file, `${redis.password}\n`, { mode: 0o600 });
}
