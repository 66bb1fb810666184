import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { requestPipeline } from './request-pipeline.ts';
import { stateOf } from './request-state.ts';

describe('requestPipeline', () => {
  it('runs steps by phase, then in the order added, and awaits only the ones that return a promise', async () => {
    const app = Fastify();
    const seen: string[] = [];
    const pipeline = requestPipeline(app, '/api');
    pipeline.add({ name: 'late', phase: 'authorize', run: () => void seen.push('authorize') });
    pipeline.add({
      name: 'identify',
      phase: 'identify',
      run: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push('identify');
      },
    });
    pipeline.add({ name: 'gate-1', phase: 'gate', run: () => void seen.push('gate-1') });
    pipeline.add({ name: 'gate-2', phase: 'gate', run: () => void seen.push('gate-2') });
    app.get('/api/v1/things', async () => ({ seen }));
    const res = await app.inject('/api/v1/things');
    assert.deepEqual(res.json(), { seen: ['gate-1', 'gate-2', 'identify', 'authorize'] });
    await app.close();
  });

  it('describes each route once, with its version and template, and applies steps only where they say', async () => {
    const app = Fastify();
    const asked: string[] = [];
    const pipeline = requestPipeline(app, '/api');
    pipeline.add({
      name: 'api-only',
      phase: 'gate',
      appliesTo: (route) => {
        asked.push(route.url ?? `(no route) ${route.version}`);
        return route.api;
      },
      run: (_request, reply, route) => void reply.header('x-route', `${route.version} ${route.template}`),
    });
    app.get('/api/v2/users/:id', async () => ({}));
    app.get('/healthz', async () => ({}));
    for (let i = 0; i < 3; i++) {
      assert.equal((await app.inject('/api/v2/users/1')).headers['x-route'], 'v2 /users/{id}');
      assert.equal((await app.inject('/healthz')).headers['x-route'], undefined);
    }
    // A path with no route is judged from its raw path, on each request.
    const missing = await app.inject('/api/v3/nothing');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['x-route'], 'v3 undefined');
    assert.deepEqual(asked, ['/api/v2/users/:id', '/healthz', '(no route) v3']);
    await app.close();
  });

  it('compiles a route again after invalidate, for a step whose appliesTo reads live state', async () => {
    const app = Fastify();
    const pipeline = requestPipeline(app, '/api');
    let live = false;
    let asked = 0;
    pipeline.add({
      name: 'live',
      phase: 'handle',
      appliesTo: () => (asked++, live),
      run: (_request, reply) => void reply.header('x-live', 'yes'),
    });
    app.get('/api/v2/users/:id', async () => ({}));
    assert.equal((await app.inject('/api/v2/users/1')).headers['x-live'], undefined);
    live = true;
    assert.equal(
      (await app.inject('/api/v2/users/1')).headers['x-live'],
      undefined,
      'compiled once, until invalidated',
    );
    pipeline.invalidate();
    assert.equal((await app.inject('/api/v2/users/1')).headers['x-live'], 'yes');
    assert.equal((await app.inject('/api/v2/users/1')).headers['x-live'], 'yes');
    assert.equal(asked, 2);
    await app.close();
  });

  it('answers with the error a step throws or rejects with, and stops once a step has replied', async () => {
    const app = Fastify();
    const pipeline = requestPipeline(app, '/api');
    let after = 0;
    pipeline.add({
      name: 'refuse',
      phase: 'gate',
      run: (request, reply) => {
        if (request.url === '/thrown') throw Object.assign(new Error('no'), { statusCode: 418 });
        if (request.url === '/rejected') return Promise.reject(Object.assign(new Error('later'), { statusCode: 409 }));
        if (request.url === '/replied') return void reply.code(202).send({ replied: true });
      },
    });
    pipeline.add({ name: 'after', phase: 'identify', run: () => void after++ });
    for (const url of ['/thrown', '/rejected', '/replied']) app.get(url, async () => ({ handler: true }));
    assert.equal((await app.inject('/thrown')).statusCode, 418);
    assert.equal((await app.inject('/rejected')).statusCode, 409);
    const replied = await app.inject('/replied');
    assert.deepEqual([replied.statusCode, replied.json()], [202, { replied: true }]);
    assert.equal(after, 0);
    await app.close();
  });

  it('runs respond steps in one onSend, each may replace the payload; state is one object per request', async () => {
    const app = Fastify();
    const pipeline = requestPipeline(app, '/api');
    pipeline.add({ name: 'mark', phase: 'gate', run: (request) => void (stateOf(request).counted = true) });
    pipeline.respond({ name: 'header', run: (_request, reply) => void reply.header('x-one', '1') });
    pipeline.respond({ name: 'replace', run: async (request) => (stateOf(request).counted ? 'replaced' : undefined) });
    app.get('/x', async () => 'original');
    const res = await app.inject('/x');
    assert.equal(res.body, 'replaced');
    assert.equal(res.headers['x-one'], '1');
    await app.close();
  });

  it('keeps one pipeline per context: an encapsulated plugin gets its own, never run on the parent routes', async () => {
    const app = Fastify();
    assert.equal(requestPipeline(app, '/api'), requestPipeline(app));
    await app.register(async (child) => {
      assert.notEqual(requestPipeline(child), requestPipeline(app));
      requestPipeline(child).add({
        name: 'child',
        phase: 'gate',
        run: (_q, reply) => void reply.header('x-child', '1'),
      });
      child.get('/inside', async () => ({}));
    });
    app.get('/outside', async () => ({}));
    assert.equal((await app.inject('/inside')).headers['x-child'], '1');
    assert.equal((await app.inject('/outside')).headers['x-child'], undefined);
    await app.close();
  });
});
