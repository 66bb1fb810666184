import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { renderHttpConf, type NginxConfOptions } from './render-conf.ts';
import { needsResolver, nginxRedisOf, redisPasswordFileOf, writeRedisPassword } from './redis-settings.ts';

const ops = { redisPrefix: 'acme:', redisTimeoutMs: 80 };
const redisOf = (url: string | undefined) =>
  nginxRedisOf({ ...(url ? { redisUrl: url } : {}), ops: ops as Parameters<typeof nginxRedisOf>[0]['ops'] });

describe("nginx's Redis settings", () => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-redis-settings-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads VERSIONARY_REDIS_URL as ioredis does, with the Node store prefix', () => {
    assert.equal(redisOf(undefined), undefined);
    assert.deepEqual(redisOf('redis://localhost'), {
      host: '127.0.0.1',
      port: 6379,
      db: 0,
      ssl: false,
      prefix: 'acme:rate-limit:',
      timeoutMs: 80,
    });
    assert.deepEqual(redisOf('rediss://app:p%40ss@[::1]:6380/3'), {
      host: '::1',
      port: 6380,
      db: 3,
      username: 'app',
      password: 'p@ss',
      ssl: true,
      prefix: 'acme:rate-limit:',
      timeoutMs: 80,
    });
    assert.equal(redisOf('redis://:secret@10.0.0.2?db=2')?.db, 2);
    assert.equal(redisOf('redis://:secret@10.0.0.2')?.username, undefined);
    assert.equal(needsResolver(redisOf('redis://10.0.0.2')!), false);
    assert.equal(needsResolver(redisOf('redis://redis.internal')!), true);
  });

  it('keeps the password out of the configuration, in a file only its owner reads', () => {
    const out = join(dir, 'out');
    mkdirSync(join(out, 'private'), { recursive: true, mode: 0o700 });
    const redis = redisOf('redis://:hunter2-secret@10.0.0.2:6379')!;
    const passwordFile = redisPasswordFileOf(out);
    const conf = renderHttpConf({
      out,
      prefix: '/api',
      upstreams: {},
      control: 'http://127.0.0.1:3000',
      usageMemory: '8m',
      authCacheSeconds: 10,
      clientHeader: 'x-client-id',
      keepsCredential: false,
      forwardedHeaders: 'both',
      noTable: '{}',
      secretFile: join(out, 'private', 'secret'),
      pushRefused: '{}',
      redis: { redis, passwordFile },
    } satisfies NginxConfOptions);
    assert.doesNotMatch(conf, /hunter2/);
    assert.ok(conf.includes(`password_file = [=[${passwordFile}]=]`), conf);
    writeRedisPassword(out, redis);
    assert.equal(readFileSync(passwordFile, 'utf8'), 'hunter2-secret\n');
    assert.equal(statSync(passwordFile).mode & 0o777, 0o600);
    // A later render for a Redis without a password leaves no stale one behind.
    writeRedisPassword(out, redisOf('redis://10.0.0.2')!);
    assert.equal(existsSync(passwordFile), false);
  });

  it("runs the Node store's script, byte for byte: one window and one key for both", () => {
    const lua = readFileSync(new URL('./lua/versionary/redis_rate.lua', import.meta.url), 'utf8');
    const node = readFileSync(new URL('../../storage/redis/redis-rate-limit-store.ts', import.meta.url), 'utf8');
    const inLua = /local script = "\\n" \.\. \[\[\n([\s\S]*?)\]\]/.exec(lua)?.[1];
    const inNode = /const hitScript = `\n([^`]*)`/.exec(node)?.[1];
    assert.ok(inNode?.includes("redis.call('INCR', KEYS[1])"), 'the Node store has its script');
    // Both open with a newline (Lua's long string drops its first, so the Lua adds one).
    assert.equal(inLua, inNode);
  });
});
