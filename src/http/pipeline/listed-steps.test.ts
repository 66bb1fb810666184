import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { defaultSteps, listSteps, provideSteps } from './listed-steps.ts';
import { requestPipeline, routeSteps } from './request-pipeline.ts';
import { defineStep, routeStep, stepKey } from './step-definition.ts';

const tenantKey = stepKey<{ seen: string[]; header: string; enabled: boolean }>('tenant-test');
const otherKey = stepKey<{ seen: string[] }>('other-test');

// Declared in one order, listed in another: the list alone decides.
const tenantCheck = defineStep({
  needs: tenantKey,
  phase: 'check',
  name: 'tenant',
  appliesTo: (route, resources) => route.url !== `/skip-${resources.header}`,
  create: (resources) => (request) => {
    resources.seen.push('tenant');
    if (request.headers[resources.header] === undefined)
      throw Object.assign(new Error('no tenant'), { statusCode: 400 });
  },
});
const tenantGate = defineStep({
  needs: tenantKey,
  phase: 'check',
  name: 'tenant-gate',
  create: (resources) => () => void resources.seen.push('tenant-gate'),
});
const switchedOff = defineStep({
  needs: tenantKey,
  phase: 'check',
  name: 'switched-off',
  create: (resources) => (resources.enabled ? () => void resources.seen.push('switched-off') : undefined),
});
const tenantHeader = defineStep({
  needs: tenantKey,
  phase: 'respond',
  name: 'tenant-header',
  create: (resources) => (request, reply) => void reply.header('x-tenant', request.headers[resources.header]),
});
const otherPart = defineStep({
  needs: otherKey,
  phase: 'gate',
  name: 'other',
  create: (resources) => () => void resources.seen.push('other'),
});

const list = [otherPart, tenantGate, switchedOff, routeStep('check', 'route-given'), tenantCheck, tenantHeader];

describe('provideSteps', () => {
  it("installs the listed definitions that need the key, in the list's order, and leaves out one that is off", async () => {
    const app = Fastify();
    listSteps(app, list, '/api');
    const seen: string[] = [];
    provideSteps({ app, prefix: '/api' }, [[tenantKey, { seen, header: 'x-tenant', enabled: false }]]);
    app.get('/api/v1/things', async () => ({ ok: true }));
    app.get('/skip-x-tenant', async () => ({ ok: true }));
    const res = await app.inject({ url: '/api/v1/things', headers: { 'x-tenant': 'acme' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-tenant'], 'acme');
    // `other` needs another key: not installed by this call; `switched-off` returned undefined.
    assert.deepEqual(seen, ['tenant-gate', 'tenant']);
    assert.equal((await app.inject('/api/v1/things')).statusCode, 400);
    // `appliesTo` is given the key's resource.
    seen.length = 0;
    assert.equal((await app.inject('/skip-x-tenant')).statusCode, 200);
    assert.deepEqual(seen, ['tenant-gate']);
    await app.close();
  });

  it('runs a route-given step where the list places it, among the installed ones', async () => {
    const app = Fastify();
    listSteps(app, list, '/api');
    const seen: string[] = [];
    provideSteps({ app, prefix: '/api' }, [
      [tenantKey, { seen, header: 'x-tenant', enabled: true }],
      [otherKey, { seen }],
    ]);
    const own = routeSteps([{ phase: 'check', name: 'route-given', run: () => void seen.push('route-given') }]);
    app.get('/api/v1/things', { config: own }, async () => ({ ok: true }));
    assert.equal((await app.inject({ url: '/api/v1/things', headers: { 'x-tenant': 'a' } })).statusCode, 200);
    assert.deepEqual(seen, ['other', 'tenant-gate', 'switched-off', 'route-given', 'tenant']);
    await app.close();
  });

  it('refuses a step the list does not name, added or route-given, and resources for a context with no list', async () => {
    const app = Fastify();
    listSteps(app, list, '/api');
    assert.throws(
      () => requestPipeline(app, '/api').add({ name: 'stray', phase: 'gate', run: () => undefined }),
      /gate:stray is not in the product's list/,
    );
    const stray = routeSteps([{ phase: 'input', name: 'stray', run: () => undefined }]);
    assert.throws(() => app.get('/api/v1/stray', { config: stray }, async () => ({})), /input:stray/);
    await app.close();
    const bare = Fastify();
    assert.throws(
      () => provideSteps(bare, [[otherKey, { seen: [] }]]),
      /other-test are provided to a context that has no list/,
    );
    await bare.close();
  });

  it('keeps the list a context has over a default one, and orders nothing with a default one', async () => {
    const app = Fastify();
    listSteps(app, list, '/api');
    defaultSteps(app, [], '/api');
    const seen: string[] = [];
    provideSteps({ app, prefix: '/api' }, [[otherKey, { seen }]]);
    app.get('/api/x', async () => ({}));
    await app.inject('/api/x');
    assert.deepEqual(seen, ['other']);
    await app.close();
    const plain = Fastify();
    defaultSteps(plain, list, '/api');
    provideSteps({ app: plain, prefix: '/api' }, [[otherKey, { seen }]]);
    // Without the product's list, a step it does not name is still accepted.
    requestPipeline(plain, '/api').add({ name: 'app-own', phase: 'gate', run: () => undefined });
    await plain.close();
  });

  it('types each resource by its key', async () => {
    const app = Fastify();
    defaultSteps(app, list, '/api');
    // @ts-expect-error -- `other-test` needs `{ seen: string[] }`
    provideSteps(app, [[otherKey, { seen: 'no' }]]);
    const seen: string[] = [];
    provideSteps(app, [
      [otherKey, { seen }],
      // @ts-expect-error -- a tenant resource without its header and switch
      [tenantKey, { seen }],
    ]);
    await app.close();
  });
});
