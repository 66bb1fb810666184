import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { routeUrlOf } from './route-url.ts';

test('routeUrlOf gives the matched pattern, undefined when nothing matched, and reads routeOptions once per request', async () => {
  const app = Fastify();
  const seen: Array<string | undefined> = [];
  let reads = 0;
  app.addHook('onResponse', async (request) => {
    let proto: object | null = Object.getPrototypeOf(request);
    while (proto && !Object.getOwnPropertyDescriptor(proto, 'routeOptions')) proto = Object.getPrototypeOf(proto);
    const original = Object.getOwnPropertyDescriptor(proto!, 'routeOptions')!;
    Object.defineProperty(request, 'routeOptions', { get() { reads++; return original.get!.call(this); } });
    seen.push(routeUrlOf(request), routeUrlOf(request));
  });
  app.get('/api/v2/users/:id', async () => ({ ok: true }));
  await app.inject({ url: '/api/v2/users/7' });
  await app.inject({ url: '/nowhere' });
  assert.deepEqual(seen, ['/api/v2/users/:id', '/api/v2/users/:id', undefined, undefined]);
  assert.equal(reads, 2);
  await app.close();
});
