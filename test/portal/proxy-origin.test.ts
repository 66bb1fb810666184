import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { test } from 'node:test';
import { createFixedClock } from '../../src/core/clock/index.ts';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { bookHandlers, booksBundle } from '../loop/books.ts';
import { createTestApp, testAdminKey } from '../support/test-app.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const signIn = { method: 'POST' as const, url: '/portal/sign-in', payload: `key=${testAdminKey}` };

test("behind a TLS-terminating proxy, a form posted from the configured publicUrl is the portal's own", async () => {
  const t = await createTestApp({
    anonymous: true,
    env: { VERSIONARY_CONFIG: '/c.json' },
    files: { '/c.json': JSON.stringify({ publicUrl: 'https://portal.example/' }) },
  });
  // What the proxy forwards: plain http on the socket, the browser's https origin in the header.
  const behind = { ...form, host: 'portal.example', 'x-forwarded-proto': 'https' };
  assert.equal(
    (await t.app.inject({ ...signIn, headers: { ...behind, origin: 'https://portal.example' } })).statusCode,
    303,
  );
  for (const origin of [
    'https://evil.example',
    'http://portal.example.evil.example',
    'https://portal.example.evil.example',
    'null',
  ]) {
    assert.equal((await t.app.inject({ ...signIn, headers: { ...behind, origin } })).statusCode, 403, origin);
  }
  // The service trusts no proxy: X-Forwarded-Proto alone does not make an https origin its own.
  assert.equal(
    (
      await t.app.inject({
        ...signIn,
        headers: { ...form, host: 'other.example', 'x-forwarded-proto': 'https', origin: 'https://other.example' },
      })
    ).statusCode,
    403,
  );
  assert.equal(
    (await t.app.inject({ ...signIn, headers: { ...form, host: 'other.example', origin: 'http://other.example' } }))
      .statusCode,
    303,
    'the origin the request was sent to still counts',
  );
  await t.close();
});

test("in an app that trusts its proxy, X-Forwarded-Proto from that proxy (and only from it) makes the https origin the portal's own", async () => {
  const app = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books' }), trustProxy: '127.0.0.1' });
  await app.register(versionaryLoop, {
    bundle: booksBundle,
    handlers: bookHandlers,
    vendor: 'books',
    title: 'Books API',
    clock: createFixedClock(Date.UTC(2026, 0, 15)),
    env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: testAdminKey },
    settings: { notices: { intervalSeconds: 0 } },
  });
  await app.ready();
  const headers = { ...form, host: 'books.example', 'x-forwarded-proto': 'https', origin: 'https://books.example' };
  assert.equal(
    (await app.inject({ ...signIn, headers, remoteAddress: '127.0.0.1' })).statusCode,
    303,
    'from the trusted proxy',
  );
  assert.equal(
    (await app.inject({ ...signIn, headers, remoteAddress: '203.0.113.9' })).statusCode,
    403,
    'from anyone else',
  );
  await app.close();
});
