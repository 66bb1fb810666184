import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { routeUrlOf } from './route-url.ts';

test('routeUrlOf gives the matched pattern, undefined when nothing matched, and reads routeOptions at most once per request', async () => {
  const app = Fastify();
  const seen: Array<string | undefined> = [];
  let reads = 0;
  app.addHook('onResponse', async (request) => {
    let proto: object | null = Object.getPrototypeOf(request);
    while (proto && !Object.getOwnPropertyDescriptor(proto, 'routeOptions')) proto = Object.getPrototypeOf(proto);
    const original = Object.getOwnPropertyDescriptor(proto!, 'routeOptions')!;
    Object.defineProperty(request, 'routeOptions', {
      get() {
        reads++;
        return original.get!.call(this);
      },
    });
    seen.push(routeUrlOf(request), routeUrlOf(request));
  });
  app.get('/api/v2/users/:id', async () => ({ ok: true }));
  await app.inject({ url: '/api/v2/users/7' });
  await app.inject({ url: '/nowhere' });
  assert.deepEqual(seen, ['/api/v2/users/:id', '/api/v2/users/:id', undefined, undefined]);
  // Once for the matched request; the unmatched one is answered by `is404` alone.
  assert.equal(reads, 1);
  await app.close();
});

test('routeUrlOf follows a request handed to the not-found route after it was asked', async () => {
  const app = Fastify();
  const seen: Array<string | undefined> = [];
  app.addHook('onRequest', async (request) => void seen.push(routeUrlOf(request)));
  app.addHook('onResponse', async (request) => void seen.push(routeUrlOf(request)));
  app.get('/problems/:slug', async (_request, reply) => reply.callNotFound());
  const res = await app.inject({ url: '/problems/bogus' });
  assert.equal(res.statusCode, 404);
  assert.deepEqual(seen, ['/problems/:slug', undefined]);
  await app.close();
});
