import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { createFixedClock } from '../../src/core/clock/index.ts';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../notices/smtp-catcher.ts';
import { booksBundle, booksLoop } from './books.ts';

const adminKey = 'loop-admin-key-0123456789';
const admin = { authorization: `Bearer ${adminKey}` };
const epoch = Date.UTC(2026, 0, 15, 12);
const hour = 3_600_000;

// The loop in an app that is not the reference service: its own API (books), its own Fastify
// instance, the plugin registered as any team would.
describe('versionaryLoop in a books API', () => {
  let smtp: SmtpCatcher;
  let app: FastifyInstance;
  const clock = createFixedClock(epoch);
  before(async () => {
    smtp = await startSmtpCatcher();
    app = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books' }) });
    await app.register(versionaryLoop, {
      ...booksLoop,
      clock,
      publicUrl: 'https://books.example',
      env: {
        DATABASE_URL: 'sqlite::memory:',
        LOG_LEVEL: 'silent',
        VERSIONARY_ADMIN_KEY: adminKey,
        VERSIONARY_SMTP_URL: smtp.url,
        VERSIONARY_MAIL_FROM: 'Books <api@books.example>',
        VERSIONARY_NOTICE_SECRET: 'n'.repeat(40),
      },
      settings: {
        versions: {
          v1: {
            releasedAt: '2025-01-15T00:00:00Z',
            deprecatedAt: '2026-01-01T00:00:00Z',
            sunsetAt: '2026-09-01T00:00:00Z',
            replacement: 'v2',
          },
          v2: { releasedAt: '2025-12-01T00:00:00Z' },
        },
        notices: { intervalSeconds: 0 },
      },
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  it('closes the loop: usage per client, a notice naming its calls, the docs banner, a brownout', async () => {
    const client = await app.inject({
      method: 'POST',
      url: '/admin/v1/clients',
      headers: admin,
      payload: { name: 'Acme', contacts: ['dev@acme.test'] },
    });
    assert.equal(client.statusCode, 201, client.body);
    const key = await app.inject({
      method: 'POST',
      url: '/admin/v1/api-keys',
      headers: admin,
      payload: { name: 'acme', roles: ['read'], clientId: client.json().id },
    });
    assert.equal(key.statusCode, 201, key.body);
    const acme = { authorization: `Bearer ${key.json().key}` };

    const v1 = await app.inject({ url: '/api/v1/books', headers: acme });
    assert.equal(v1.statusCode, 200);
    assert.deepEqual(v1.json(), [{ id: 1, title: 'The Dispossessed' }], 'v1 is derived: no isbn');
    assert.ok(v1.headers.deprecation, 'v1 is deprecated');
    assert.equal((await app.inject({ url: '/api/v1/books' })).statusCode, 401, 'the API needs a key');

    const run = await app.inject({ method: 'POST', url: '/admin/v1/notices/run', headers: admin });
    assert.equal(run.json().sent, 1, run.body);
    assert.deepEqual(
      smtp.messages.map((m) => m.envelopeTo),
      [['dev@acme.test']],
    );
    assert.match(smtp.messages[0]!.text ?? '', /GET \/books/);
    assert.match(smtp.messages[0]!.text ?? '', /https:\/\/books\.example\//);

    const usage = (await app.inject({ url: '/admin/v1/versions/v1', headers: admin })).json() as {
      usage: { calls: number; clients: number };
    };
    assert.deepEqual([usage.usage.calls, usage.usage.clients], [1, 1]);

    const docs = await app.inject({ url: '/docs/v1' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /id="deprecation"/);

    const iso = (ms: number) => new Date(ms).toISOString();
    const brownout = await app.inject({
      method: 'POST',
      url: '/admin/v1/brownouts',
      headers: admin,
      payload: { version: 'v1', startsAt: iso(epoch + 2 * hour), endsAt: iso(epoch + 3 * hour) },
    });
    assert.equal(brownout.statusCode, 201, brownout.body);
    clock.set(epoch + 2 * hour + 60_000);
    assert.equal((await app.inject({ url: '/api/v1/books', headers: acme })).statusCode, 410, 'inside the window');
    clock.set(epoch + 3 * hour + 60_000);
    assert.equal((await app.inject({ url: '/api/v1/books', headers: acme })).statusCode, 200, 'after it');
    assert.equal(
      (await app.inject({ url: '/api/v2/books', headers: acme })).headers.deprecation,
      undefined,
      'v2 is current',
    );
  });
});

describe("versionaryLoop with the app's own authentication", () => {
  let app: FastifyInstance;
  let smtp: SmtpCatcher;
  const sessions = new Map<string, string>();
  before(async () => {
    smtp = await startSmtpCatcher();
    app = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books' }) });
    await app.register(versionaryLoop, {
      ...booksLoop,
      clock: createFixedClock(epoch),
      env: {
        DATABASE_URL: 'sqlite::memory:',
        LOG_LEVEL: 'silent',
        VERSIONARY_ADMIN_KEY: adminKey,
        VERSIONARY_SMTP_URL: smtp.url,
        VERSIONARY_MAIL_FROM: 'api@books.example',
        VERSIONARY_NOTICE_SECRET: 'n'.repeat(40),
      },
      settings: {
        versions: {
          v1: {
            releasedAt: '2025-01-15T00:00:00Z',
            deprecatedAt: '2026-01-01T00:00:00Z',
            sunsetAt: '2026-09-01T00:00:00Z',
            replacement: 'v2',
          },
          v2: { releasedAt: '2025-12-01T00:00:00Z' },
        },
        notices: { intervalSeconds: 0 },
      },
      // The app's session cookie names the client; anything else falls back to Versionary's keys.
      identify: (request) => {
        const clientId = sessions.get(String(request.headers.cookie ?? ''));
        return clientId ? { clientId, roles: ['read'] } : undefined;
      },
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  it('counts, notifies and limits the clients the app names, while keys still work', async () => {
    const client = await app.inject({
      method: 'POST',
      url: '/admin/v1/clients',
      headers: admin,
      payload: { name: 'Acme', contacts: ['ops@acme.test'] },
    });
    const clientId = client.json().id as string;
    sessions.set('session=abc', clientId);
    const v1 = await app.inject({ url: '/api/v1/books', headers: { cookie: 'session=abc' } });
    assert.equal(v1.statusCode, 200);
    assert.equal(
      (await app.inject({ url: '/api/v1/books', headers: { cookie: 'session=nope' } })).statusCode,
      401,
      'an unknown session falls back to keys, and has none',
    );
    assert.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/admin/v1/clients',
          headers: { cookie: 'session=abc' },
          payload: { name: 'x' },
        })
      ).statusCode,
      403,
      'read only',
    );
    const calls = (await app.inject({ url: '/admin/v1/versions/v1/calls', headers: admin })).json() as {
      data: Array<{ clientId: string }>;
    };
    assert.deepEqual(
      calls.data.map((c) => c.clientId),
      [clientId],
    );
    const run = await app.inject({ method: 'POST', url: '/admin/v1/notices/run', headers: admin });
    assert.equal(run.json().sent, 1, run.body);
    assert.deepEqual(
      smtp.messages.map((m) => m.envelopeTo),
      [['ops@acme.test']],
    );
    // The consumer's portal, signed in by the app's own session: its v1 warning and its calls.
    const portal = await app.inject({ url: '/portal', headers: { cookie: 'session=abc' } });
    assert.equal(portal.statusCode, 200);
    assert.match(portal.body, /Signed in as a consumer/);
    assert.match(portal.body, /GET \/books/);
    assert.equal(
      (await app.inject({ url: '/portal', headers: { cookie: 'session=nope' } })).statusCode,
      303,
      'no identity: the sign-in page',
    );
  });
});
