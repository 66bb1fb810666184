import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { rateCounterKey } from '../../src/core/rulebook/rules.ts';
import { createRedisRateLimitStore } from '../../src/storage/redis/redis-rate-limit-store.ts';
import { gatewayAdminKey, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { startNginxHost, type NginxHost } from '../support/nginx-host.ts';
import { startOwnRedis, type OwnRedis } from '../support/own-servers.ts';
import { eventually, sharedPostgresUrl, sharedRedisUrl, throwawaySchema } from '../support/service-process.ts';

const limit = 6;
const rateLimit = { max: limit, windowSeconds: 60 };

/** A client of its own and its key, made through a control plane's management API. */
async function newClientKey(control: string): Promise<{ clientId: string; headers: Record<string, string> }> {
  const admin = { authorization: `Bearer ${gatewayAdminKey}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${control}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
    assert.equal(res.status, 201, `${path}: ${await res.clone().text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const client = await post('/admin/v1/clients', { name: `limited ${randomBytes(3).toString('hex')}`, contacts: [] });
  const { key } = await post('/admin/v1/api-keys', { name: 'limited', roles: ['read'], clientId: client.id });
  return { clientId: client.id!, headers: { authorization: `Bearer ${key}` } };
}

const call = (host: NginxHost, headers: Record<string, string>) => fetch(`${host.base}/api/v2/users/1`, { headers });

describe('two nginx hosts count one rate limit in Redis', () => {
  // A prefix and a schema of this run's own: nothing shared with another test is read or flushed.
  const prefix = `vtest-nginx-${randomBytes(4).toString('hex')}:`;
  const schema = throwawaySchema();
  const env = {
    DATABASE_URL: sharedPostgresUrl,
    VERSIONARY_DB_SCHEMA: schema.name,
    VERSIONARY_REDIS_URL: sharedRedisUrl,
    VERSIONARY_REDIS_PREFIX: prefix,
  };
  let python: PythonUpstream;
  let hosts: NginxHost[] = [];
  let redis: Redis;
  before(async () => {
    python = await startPythonUpstream();
    redis = new Redis(sharedRedisUrl);
    // One after the other: the first migrates the schema.
    for (let i = 0; i < 2; i++) hosts.push(await startNginxHost({ upstream: python.url, env, file: { rateLimit } }));
  });
  after(async () => {
    for (const host of hosts) await host.stop();
    hosts = [];
    await python?.stop();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await schema.drop();
  });

  it("renders the shared Redis and the Node store's key prefix into nginx's settings", () => {
    const conf = readFileSync(join(hosts[0]!.out, 'versionary-http.conf'), 'utf8');
    assert.match(conf, /redis = \{ host = \[=\[127\.0\.0\.1\]=\], port = 6379, db = 0, /);
    assert.ok(conf.includes(`prefix = [=[${prefix}rate-limit:]=]`), conf);
    assert.match(conf, /lua_package_path "[^"]*\/lua\/vendor\/\?\.lua;;"/);
    assert.ok(existsSync(join(hosts[0]!.out, 'lua/vendor/resty/redis.lua')));
    assert.ok(existsSync(join(hosts[0]!.out, 'lua/vendor/LICENSE.lua-resty-redis')));
  });

  it("gives a client its limit once across both hosts and the Node gateways' store, then 429 problems", async () => {
    const [a, b] = hosts as [NginxHost, NginxHost];
    const { clientId, headers } = await newClientKey(a.control);
    const first = await call(a, headers);
    assert.equal(first.status, 200);
    const policy = first.headers.get('ratelimit-policy') ?? '';
    const name = /^"?([^";]+)"?;/.exec(policy)?.[1];
    assert.ok(name, policy);
    assert.match(first.headers.get('ratelimit') ?? '', new RegExp(`;r=${limit - 1};t=\\d+$`));
    // The Node gateways' Redis store counts two calls of the same client: the same key, one budget.
    const node = createRedisRateLimitStore({ redis, prefix: `${prefix}rate-limit:` });
    const key = rateCounterKey(clientId, { name });
    await node.hit({ key, windowMs: 60_000, now: Date.now() });
    assert.equal(
      (await node.hit({ key, windowMs: 60_000, now: Date.now() })).count,
      3,
      'nginx counted in the same key',
    );
    const statuses: number[] = [];
    const refused: Response[] = [];
    for (let i = 0; i < 2 * limit; i++) {
      const host = i % 2 === 0 ? b : a;
      const res = await call(host, headers);
      statuses.push(res.status);
      if (res.status === 200) assert.match(res.headers.get('ratelimit') ?? '', new RegExp(`;r=${limit - 4 - i};t=`));
      else refused.push(res);
    }
    const served = limit - 3;
    assert.deepEqual(statuses, [...Array(served).fill(200), ...Array(2 * limit - served).fill(429)]);
    for (const res of refused.slice(0, 2)) {
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      assert.equal(((await res.json()) as { code: string }).code, 'RATE_LIMITED');
      assert.equal(res.headers.get('ratelimit-policy'), policy);
      const reset = /;r=0;t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '')?.[1];
      assert.ok(reset && Number(reset) >= 1 && Number(reset) <= 60, res.headers.get('ratelimit') ?? 'no RateLimit');
      assert.equal(res.headers.get('retry-after'), reset);
    }
    assert.equal(Number(await redis.get(`${prefix}rate-limit:${key}`)), 3 + 2 * limit);
    // Another client has a budget of its own.
    assert.equal((await call(b, (await newClientKey(b.control)).headers)).status, 200);
  });
});

describe('nginx counting in a Redis with a password, when Redis stops', () => {
  const password = `pw-${randomBytes(6).toString('hex')}`;
  let python: PythonUpstream;
  let own: OwnRedis;
  let url: string;
  let host: NginxHost;
  before(async () => {
    python = await startPythonUpstream();
    own = await startOwnRedis({ args: ['--requirepass', password] });
    url = own.url.replace('redis://', `redis://:${password}@`);
    host = await startNginxHost({ upstream: python.url, env: { VERSIONARY_REDIS_URL: url }, file: { rateLimit } });
  });
  after(async () => {
    await host?.stop();
    await own?.stop();
    await python?.stop();
  });

  it('keeps the password out of the rendered configuration', () => {
    const conf = readFileSync(join(host.out, 'versionary-http.conf'), 'utf8');
    assert.ok(!conf.includes(password), 'no password in versionary-http.conf');
    const file = join(host.out, 'private', 'redis-password');
    assert.equal(readFileSync(file, 'utf8'), `${password}\n`);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('counts in its own shared memory when Redis stops, answering no 5xx, and says so once', async () => {
    const { clientId, headers } = await newClientKey(host.control);
    const redis = new Redis(url);
    const connections = async () => Number(/total_connections_received:(\d+)/.exec(await redis.info('stats'))?.[1]);
    assert.equal((await call(host, headers)).status, 200);
    const opened = await connections();
    assert.equal((await call(host, headers)).status, 200);
    assert.equal(await connections(), opened, "nginx's connection is kept alive in its pool");
    assert.equal(Number(await redis.get(`versionary:rate-limit:${rateCounterKey(clientId, { name: 'default' })}`)), 2);
    redis.disconnect();
    await own.stop();
    const statuses: number[] = [];
    for (let i = 0; i < 2 * limit; i++) statuses.push((await call(host, headers)).status);
    // The local counter starts afresh: the limit again, on this host alone.
    assert.deepEqual(statuses, [...Array(limit).fill(200), ...Array(limit).fill(429)]);
    const said = host.log().match(/Redis at 127\.0\.0\.1:\d+ is unavailable/g) ?? [];
    assert.equal(said.length, 1, host.log());
    // Back: after the circuit's 2 s, a call finds Redis again, and the log says that once too.
    await own.start();
    await eventually(async () => {
      const res = await call(host, headers);
      assert.ok(res.status < 500, `status ${res.status}`);
      return /answers again/.test(host.log());
    }, 10_000);
    assert.equal(host.log().match(/is unavailable/g)?.length, 1);
  });
});
