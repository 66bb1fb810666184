import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, it } from 'node:test';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import {
  loopPartNames,
  versionaryLoopAccess,
  versionaryLoopLifecycle,
  versionaryLoopManagement,
  versionaryLoopNotices,
  versionaryLoopPortal,
  versionaryLoopStorage,
  versionaryLoopUsage,
} from '../../src/loop/index.ts';
import { bookHandlers, booksBundle } from './books.ts';

const adminKey = 'loop-parts-admin-key-0123456789';
const admin = { authorization: `Bearer ${adminKey}` };
const day = 86_400_000;
const now = Date.UTC(2026, 5, 1);
// Moved only by the test that walks past a sunset, which puts it back.
let current = now;
const clock = { now: () => current };
const iso = (ms: number) => new Date(ms).toISOString();

const storageOptions = {
  bundle: booksBundle,
  vendor: 'books',
  title: 'Books API',
  database: 'sqlite::memory:',
  env: { VERSIONARY_ADMIN_KEY: adminKey },
  clock,
  settings: {
    versions: {
      v1: { deprecatedAt: iso(now - 30 * day), sunsetAt: iso(now + 365 * day), replacement: 'v2' },
      v2: {},
    },
  },
};

/** A team's app with its own 404, that registers the loop's parts itself, in a context of its own. */
async function teamApp(register: (loop: FastifyInstance) => Promise<void>): Promise<FastifyInstance> {
  const app = Fastify(loopServerOptions(storageOptions));
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ team: 'not found', url: request.url }));
  app.get('/health', async () => ({ ok: true }));
  await app.register(register);
  await app.ready();
  return app;
}

describe('the loop, part by part', () => {
  it('storage, usage, lifecycle, access and management alone: a stored sunset, usage per client, no portal nor notices', async () => {
    const app = await teamApp(async (loop) => {
      await loop.register(versionaryLoopStorage, storageOptions);
      await loop.register(versionaryLoopUsage);
      await loop.register(versionaryLoopLifecycle, { handlers: bookHandlers });
      await loop.register(versionaryLoopAccess, {
        identify: (request) =>
          request.headers['x-team'] === 'acme' ? { clientId: 'acme', roles: ['read'] } : undefined,
      });
      await loop.register(versionaryLoopManagement);
    });
    try {
      const v1 = await app.inject({ url: '/api/v1/books', headers: { 'x-team': 'acme' } });
      assert.equal(v1.statusCode, 200, v1.body);
      assert.equal(v1.headers.sunset, iso(now + 365 * day));
      assert.equal((await app.inject({ url: '/api/v1/books' })).statusCode, 401, 'access is in');

      const later = iso(now + 400 * day);
      const put = await app.inject({
        method: 'PUT',
        url: '/admin/v1/versions/v1/deprecation',
        headers: admin,
        payload: { sunsetAt: later },
      });
      assert.equal(put.statusCode, 200, put.body);
      const after = await app.inject({ url: '/api/v1/books', headers: { 'x-team': 'acme' } });
      assert.equal(after.headers.sunset, later, 'the stored sunset is served');

      const calls = await app.inject({ url: '/admin/v1/versions/v1/calls', headers: admin });
      assert.equal(calls.statusCode, 200, calls.body);
      assert.match(calls.body, /acme/, 'usage is counted per client');

      for (const url of ['/portal', '/docs/v1', '/notices/unsubscribe', '/elsewhere'])
        assert.deepEqual((await app.inject({ url })).json(), { team: 'not found', url }, `${url}: the app's 404`);
      const unknownAdmin = await app.inject({ url: '/admin/v1/nope', headers: admin });
      assert.match(
        String(unknownAdmin.headers['content-type']),
        /^application\/problem\+json/,
        'the loop answers under /admin',
      );
      const unknownApi = await app.inject({ url: '/api/v2/nope' });
      assert.match(
        String(unknownApi.headers['content-type']),
        /^application\/problem\+json/,
        'and under its API prefix',
      );
      // One pipeline per context: the access part's limit applies to the unknown path the lifecycle part answers.
      assert.ok(unknownApi.headers.ratelimit, 'an unknown API path is rate limited like a known one');
      assert.deepEqual((await app.inject({ url: '/health' })).json(), { ok: true });

      // The spec's lifecycle: "Sunset Window | reaching the sunset date | the sunset date has passed |
      // Removed | requests receive 410 or 404". The parts registered one by one keep it, and the
      // lifecycle part answers before the access part asks for credentials.
      current = Date.parse(later) + 1000;
      const removed = await app.inject({ url: '/api/v1/books' });
      assert.equal(removed.statusCode, 410, removed.body);
      assert.match(String(removed.headers['content-type']), /^application\/problem\+json/);
      assert.equal((await app.inject({ url: '/api/v2/books', headers: { 'x-team': 'acme' } })).statusCode, 200);
    } finally {
      current = now;
      await app.close();
    }
  });

  it('fails a part registered without the parts it needs, naming every one of them', async () => {
    const app = Fastify();
    void app.register(async (loop) => {
      await loop.register(versionaryLoopManagement);
    });
    await assert.rejects(
      async () => app.ready(),
      (error: Error) => {
        assert.match(
          error.message,
          /versionary-loop-management needs versionary-loop-storage, versionary-loop-lifecycle, versionary-loop-access registered before it/,
        );
        assert.match(error.message, new RegExp(loopPartNames.join(', ')));
        return true;
      },
    );
    const late = Fastify(loopServerOptions(storageOptions));
    void late.register(async (loop) => {
      await loop.register(versionaryLoopStorage, storageOptions);
      await loop.register(versionaryLoopLifecycle, { handlers: bookHandlers });
      await loop.register(versionaryLoopUsage);
    });
    await assert.rejects(async () => late.ready(), /register it before/);
    await late.close();
  });

  it('each part registers alone once its dependencies are in', async () => {
    for (const last of [versionaryLoopNotices, versionaryLoopPortal, versionaryLoopManagement]) {
      const app = await teamApp(async (loop) => {
        await loop.register(versionaryLoopStorage, storageOptions);
        await loop.register(versionaryLoopLifecycle, { handlers: bookHandlers });
        await loop.register(versionaryLoopAccess);
        await loop.register(last);
      });
      assert.equal((await app.inject({ url: '/api/v2/books', headers: admin })).statusCode, 200);
      await app.close();
    }
  });

  it('the preset leaves out the portal and notices when told to, and the app keeps those paths', async () => {
    const app = Fastify(loopServerOptions(storageOptions));
    app.setNotFoundHandler((request, reply) => reply.code(404).send({ team: 'not found', url: request.url }));
    await app.register(versionaryLoop, { ...storageOptions, handlers: bookHandlers, portal: false, notices: false });
    try {
      assert.equal((await app.inject({ url: '/api/v2/books', headers: admin })).statusCode, 200);
      for (const url of ['/portal', '/docs/v1', '/notices/unsubscribe'])
        assert.deepEqual((await app.inject({ url })).json(), { team: 'not found', url });
      const brownouts = await app.inject({ url: '/admin/v1/brownouts', headers: admin });
      assert.equal(brownouts.statusCode, 404, 'no notices, no brownouts');
      assert.match(String(brownouts.headers['content-type']), /^application\/problem\+json/);
      assert.equal((await app.inject({ url: '/admin/v1/versions', headers: admin })).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  it('reports every error of the options and of the settings at once, naming the nearest option for a typo', async () => {
    const app = Fastify(loopServerOptions(storageOptions));
    void app.register(versionaryLoop, {
      ...storageOptions,
      handlers: bookHandlers,
      vendor: 'books and more',
      portal: 'no',
      setings: {},
      settings: { versions: { v1: { sunset: '2030-01-01' } } },
    } as never);
    await assert.rejects(
      async () => app.ready(),
      (error: Error) => {
        assert.match(
          error.message,
          /^versionary\/loop cannot start: INVALID_CONFIG: The loop's options have \d+ error/,
        );
        assert.match(error.message, /vendor must be a media-type token/);
        assert.match(error.message, /portal must be a boolean/);
        assert.match(error.message, /setings is not an option of the loop; did you mean settings\?/);
        assert.match(error.message, /sunset/, 'the settings in the same pass');
        return true;
      },
    );
    const part = Fastify(loopServerOptions(storageOptions));
    void part.register(async (loop) => {
      await loop.register(versionaryLoopStorage, storageOptions);
      await loop.register(versionaryLoopLifecycle, { handlers: bookHandlers });
      await loop.register(versionaryLoopAccess, { identfy: () => undefined } as never);
    });
    await assert.rejects(async () => part.ready(), /identfy is not an option of the loop; did you mean identify\?/);
    await part.close();
  });
});
