import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { createFixedClock } from '../../src/core/clock/index.ts';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import type { LoopSettings } from '../../src/loop/index.ts';
import { booksBundle, booksLoop } from './books.ts';

const adminKey = 'loop-admin-key-0123456789';
const admin = { authorization: `Bearer ${adminKey}` };
const epoch = Date.UTC(2026, 0, 15, 12);
const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function loopUnderPublic(versions: LoopSettings['versions']): Promise<FastifyInstance> {
  const prefix = '/public';
  const app = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books', prefix }) });
  await app.register(versionaryLoop, {
    ...booksLoop,
    prefix,
    clock: createFixedClock(epoch),
    env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: adminKey },
    settings: { versions, rateLimit: { max: 3, windowSeconds: 60, roles: { admin: { max: 1000 } } } },
  });
  await app.ready();
  return app;
}

// One scope built from the configured prefix decides what is the API: under /public the loop
// limits, gates, browns out and counts, and /api/... is just another path of the app.
describe('versionaryLoop under /public', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await loopUnderPublic({
      v1: { deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: '2026-09-01T00:00:00Z', replacement: 'v2' },
      v2: {},
    });
  });
  after(() => app.close());

  it('limits anonymous calls per address under /public, and not /api', async () => {
    const from = { remoteAddress: '198.51.100.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await app.inject({ url: '/public/v2/books', ...from })).statusCode);
    assert.deepEqual(statuses, [401, 401, 401, 429]);
    const elsewhere = await app.inject({ url: '/api/v2/books', ...from });
    assert.equal(elsewhere.statusCode, 404);
    assert.equal(elsewhere.headers['ratelimit-policy'], undefined);
  });

  it('counts usage of the deprecated version, browns it out, and labels metrics with it', async () => {
    const v1 = await app.inject({ url: '/public/v1/books', headers: admin });
    assert.equal(v1.statusCode, 200, v1.body);
    assert.ok(v1.headers.deprecation);
    assert.ok(v1.headers['ratelimit-policy'], 'limited under /public');
    const detail = (await app.inject({ url: '/admin/v1/versions/v1', headers: admin })).json() as {
      usage: { calls: number };
    };
    assert.equal(detail.usage.calls, 1);
    const brownout = await app.inject({
      method: 'POST',
      url: '/admin/v1/brownouts',
      headers: admin,
      payload: { version: 'v1', startsAt: iso(epoch - hour), endsAt: iso(epoch + hour) },
    });
    assert.equal(brownout.statusCode, 201, brownout.body);
    const browned = await app.inject({ url: '/public/v1/books', headers: admin });
    assert.equal(browned.statusCode, 410);
    assert.match(browned.json().detail, /brownout/);
    const metrics = await app.inject({ url: '/metrics', headers: admin });
    assert.match(metrics.body, /route="\/public\/v1\/books"[^\n]*version="v1"/);
  });
});

describe('versionaryLoop under /public with v1 removed', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await loopUnderPublic({ v1: { removed: true }, v2: {} });
  });
  after(() => app.close());

  it('answers 410 under /public, while /api/v1 is no API path', async () => {
    const gone = await app.inject({ url: '/public/v1/books', headers: admin });
    assert.equal(gone.statusCode, 410);
    assert.equal(gone.json().code, 'VERSION_REMOVED');
    assert.equal((await app.inject({ url: '/public/v1/no/such/path', headers: admin })).statusCode, 410);
    assert.equal((await app.inject({ url: '/api/v1/books', headers: admin })).statusCode, 404);
  });
});
