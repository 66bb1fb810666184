import assert from 'node:assert/strict';
import { createApiScope } from '../../../http/api-scope.ts';
import { describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { createFixedClock } from '../../../core/clock/index.ts';
import { fromFrameworkError } from '../../../http/fastify-errors.ts';
import { internalError, sendProblem } from '../../../http/problem.ts';
import { setPrincipal, type Role } from '../../../kernel/ports/principal.ts';
import { listSteps, provideSteps } from '../../../http/pipeline/listed-steps.ts';
import { loopSteps } from '../../steps.ts';
import { rateLimitKey } from './install-rate-limit.ts';
import { createMemoryRateLimitStore } from '../../../kernel/rate-limit/memory-store.ts';
import { defaultRateLimitSettings, type RateLimitSettings } from './settings.ts';
import type { RateLimitStore } from '../../../kernel/ports/rate-limit.ts';

const epoch = Date.UTC(2026, 0, 15, 12, 0, 0);

/** A tiny app: a stand-in auth hook (`x-test-principal: id:role,role`) registered before the limiter. */
async function tinyApp(
  options: { settings?: Partial<RateLimitSettings>; store?: RateLimitStore; prefix?: string } = {},
) {
  const clock = createFixedClock(epoch);
  const app: FastifyInstance = Fastify({ logger: false });
  app.setErrorHandler((error, _request, reply) => sendProblem(reply, fromFrameworkError(error) ?? internalError()));
  app.addHook('onRequest', async (request) => {
    const header = request.headers['x-test-principal'];
    if (typeof header !== 'string') return;
    const [id = '', roles = ''] = header.split(':');
    setPrincipal(request, { id, roles: new Set(roles.split(',').filter(Boolean) as Role[]), kind: 'api-key' });
  });
  const settings = { ...defaultRateLimitSettings, max: 3, windowSeconds: 60, ...options.settings };
  const scope = createApiScope(options.prefix ?? '/api');
  // The limiter's step is installed from the context's list of steps, as in the loop.
  listSteps(app, loopSteps, scope.prefix);
  const limits = { settings, store: options.store ?? createMemoryRateLimitStore(), clock, scope };
  provideSteps({ app, prefix: scope.prefix }, [[rateLimitKey, limits]]);
  app.get(`${scope.prefix}/v1/things`, async () => ({ ok: true }));
  if (scope.prefix !== '/api') app.get('/api/v1/things', async () => ({ ok: true }));
  app.get('/admin/v1/versions', async () => ({ ok: true }));
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.ready();
  return { app, clock };
}

type Who = { principal?: string; ip?: string };
const get = (app: FastifyInstance, who: Who = {}, url = '/api/v1/things') =>
  app.inject({
    method: 'GET',
    url,
    ...(who.ip ? { remoteAddress: who.ip } : {}),
    ...(who.principal ? { headers: { 'x-test-principal': who.principal } } : {}),
  });

async function exhaust(app: FastifyInstance, who: Who, times: number) {
  for (let i = 0; i < times; i++)
    assert.equal((await get(app, who)).statusCode, 200, `request ${i + 1} is within the limit`);
}

describe('the rate-limit step', () => {
  test('a successful response carries RateLimit-Policy and RateLimit, counting down', async () => {
    const { app, clock } = await tinyApp();
    const first = await get(app);
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['ratelimit-policy'], '"default";q=3;w=60');
    assert.equal(first.headers.ratelimit, '"default";r=2;t=60');
    clock.advance(10_500);
    const second = await get(app);
    // 49.5 s left rounds up, so a client waiting t seconds never arrives early.
    assert.equal(second.headers.ratelimit, '"default";r=1;t=50');
    assert.equal(second.headers['retry-after'], undefined);
    await app.close();
  });

  test('over the limit: 429 problem with Retry-After, RateLimit r=0 and RateLimit-Policy', async () => {
    const { app, clock } = await tinyApp();
    await exhaust(app, {}, 3);
    clock.advance(20_000);
    const refused = await get(app);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '40');
    assert.equal(refused.headers.ratelimit, '"default";r=0;t=40');
    assert.equal(refused.headers['ratelimit-policy'], '"default";q=3;w=60');
    assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
    const body = JSON.parse(refused.body);
    assert.equal(body.status, 429);
    assert.equal(body.code, 'RATE_LIMITED');
    assert.equal(body.type, '/problems/rate-limited');
    assert.equal(body.title, 'Too many requests');
    assert.match(body.detail, /3 requests per 60 seconds; retry in 40 seconds/);
    await app.close();
  });

  test('the window resets when the clock reaches its end, not a millisecond before', async () => {
    const { app, clock } = await tinyApp();
    await exhaust(app, {}, 3);
    clock.advance(59_999);
    assert.equal((await get(app)).statusCode, 429);
    clock.advance(1);
    const renewed = await get(app);
    assert.equal(renewed.statusCode, 200);
    assert.equal(renewed.headers.ratelimit, '"default";r=2;t=60');
    await app.close();
  });

  test('clients are counted apart: one exhausted principal does not limit another or an anonymous IP', async () => {
    const { app } = await tinyApp();
    await exhaust(app, { principal: 'key_a:read' }, 3);
    assert.equal((await get(app, { principal: 'key_a:read' })).statusCode, 429);
    const other = await get(app, { principal: 'key_b:read' });
    assert.equal(other.statusCode, 200);
    assert.equal(other.headers.ratelimit, '"default";r=2;t=60');
    assert.equal((await get(app)).statusCode, 200);
    await app.close();
  });

  test('unauthenticated requests are limited per IP; a principal behind that IP is not', async () => {
    const { app } = await tinyApp();
    await exhaust(app, { ip: '203.0.113.7' }, 3);
    assert.equal((await get(app, { ip: '203.0.113.7' })).statusCode, 429);
    assert.equal((await get(app, { ip: '198.51.100.9' })).statusCode, 200);
    assert.equal((await get(app, { ip: '203.0.113.7', principal: 'key_a:read' })).statusCode, 200);
    await app.close();
  });

  test("per-role overrides: the most generous of the principal's roles applies", async () => {
    const { app } = await tinyApp({ settings: { roles: { admin: { max: 5 }, read: { max: 1 } } } });
    const admin = await get(app, { principal: 'key_admin:read,admin' });
    assert.equal(admin.headers['ratelimit-policy'], '"admin";q=5;w=60');
    assert.equal(admin.headers.ratelimit, '"admin";r=4;t=60');
    await exhaust(app, { principal: 'key_admin:read,admin' }, 4);
    assert.equal((await get(app, { principal: 'key_admin:read,admin' })).statusCode, 429);

    // A lower override restricts a principal holding only that role...
    const reader = await get(app, { principal: 'key_reader:read' });
    assert.equal(reader.headers['ratelimit-policy'], '"read";q=1;w=60');
    assert.equal((await get(app, { principal: 'key_reader:read' })).statusCode, 429);
    // ...but a role without an override counts as the base, which is more generous here.
    assert.equal(
      (await get(app, { principal: 'key_writer:read,write' })).headers['ratelimit-policy'],
      '"default";q=3;w=60',
    );
    // Unauthenticated clients get the base.
    assert.equal((await get(app)).headers['ratelimit-policy'], '"default";q=3;w=60');
    await app.close();
  });

  test('limits /admin too, but never /healthz', async () => {
    const { app } = await tinyApp();
    for (let i = 0; i < 5; i++) {
      const health = await get(app, {}, '/healthz');
      assert.equal(health.statusCode, 200);
      assert.equal(health.headers.ratelimit, undefined);
    }
    const admin = await get(app, {}, '/admin/v1/versions');
    assert.equal(admin.headers.ratelimit, '"default";r=2;t=60');
    await exhaust(app, {}, 2);
    assert.equal((await get(app, {}, '/admin/v1/versions?x=1')).statusCode, 429);
    await app.close();
  });

  test('keys the store by client and policy (rateCounterKey of core), else ip:<address>', async () => {
    const keys: string[] = [];
    const memory = createMemoryRateLimitStore();
    const store: RateLimitStore = {
      hit: (options) => {
        keys.push(options.key);
        return memory.hit(options);
      },
      peek: (options) => memory.peek(options),
    };
    const { app } = await tinyApp({ store });
    await get(app, { ip: '203.0.113.7' });
    await get(app, { ip: '203.0.113.7', principal: 'key_a:read' });
    assert.deepEqual(keys, ['ip:203.0.113.7', 'client:default:key_a']);
    await app.close();
  });

  test('a failing store serves the request without RateLimit fields instead of failing it', async () => {
    const store: RateLimitStore = {
      hit: async () => {
        throw new Error('redis down');
      },
      peek: async () => {
        throw new Error('redis down');
      },
    };
    const { app } = await tinyApp({ store });
    const res = await get(app);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.ratelimit, undefined);
    await app.close();
  });

  test('enabled: false installs nothing', async () => {
    const { app } = await tinyApp({ settings: { enabled: false } });
    for (let i = 0; i < 5; i++) assert.equal((await get(app)).statusCode, 200);
    assert.equal((await get(app)).headers.ratelimit, undefined);
    await app.close();
  });
});

test('under another prefix, that prefix is limited and /api is just another path', async () => {
  const { app } = await tinyApp({ prefix: '/public' });
  const statuses = async (url: string) => {
    const out: number[] = [];
    for (let i = 0; i < 4; i++) out.push((await app.inject({ url, remoteAddress: '203.0.113.9' })).statusCode);
    return out;
  };
  assert.deepEqual(await statuses('/public/v1/things'), [200, 200, 200, 429]);
  const other = await app.inject({ url: '/api/v1/things', remoteAddress: '203.0.113.10' });
  assert.equal(other.headers['ratelimit-policy'], undefined, '/api is not the API here');
  await app.close();
});
