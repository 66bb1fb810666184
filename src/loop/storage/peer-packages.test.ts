import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertPeers, peersFor } from './peer-packages.ts';

const names = (env: Record<string, string>, surface: 'service' | 'gateway' | 'loop' = 'service') =>
  peersFor({ env, surface, nodeVersion: '20.19.0' }).map((peer) => peer.name);

describe('peersFor', () => {
  it('asks for pg, ioredis and nodemailer only when the configuration uses them', () => {
    const sqlite = names({});
    for (const absent of ['pg', 'ioredis', 'nodemailer', 'undici']) assert.ok(!sqlite.includes(absent));
    assert.ok(sqlite.includes('libsql') && sqlite.includes('kysely'));
    assert.ok(
      names({ VERSIONARY_SMTP_URL: 'log:' }).every((name) => name !== 'nodemailer'),
      'log: needs no mailer',
    );
    const all = names({
      DATABASE_URL: 'postgres://db/app',
      VERSIONARY_REDIS_URL: 'redis://127.0.0.1:6379',
      VERSIONARY_SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    for (const present of ['pg', 'ioredis', 'nodemailer']) assert.ok(all.includes(present), present);
    assert.ok(!all.includes('libsql'), 'PostgreSQL needs no SQLite driver');
    assert.ok(!names({ VERSIONARY_SQLITE_DRIVER: 'node:sqlite' }).includes('libsql'));
    assert.ok(names({}, 'gateway').includes('undici'));
    assert.ok(!names({}, 'loop').includes('pino'), "the loop logs through the app's own logger");
  });
});

describe('assertPeers', () => {
  it('names every missing package at once, with one npm install line, and no stack', () => {
    const needed = peersFor({
      env: { DATABASE_URL: 'postgres://db/app', VERSIONARY_REDIS_URL: 'redis://r:6379' },
      surface: 'service',
    });
    const error = (() => {
      try {
        assertPeers(needed, (name) => !['pg', 'ioredis'].includes(name));
      } catch (e) {
        return e as Error & { code: string };
      }
      return undefined;
    })();
    assert.ok(error);
    assert.equal(error.code, 'PACKAGES_MISSING');
    assert.match(error.message, /needs 2 package\(s\) that are not installed, for PostgreSQL, Redis: pg, ioredis\./);
    assert.match(error.message, /\n {2}npm install pg@"[^"]+" ioredis@"[^"]+"\n$/);
    assert.equal(error.stack, error.message);
    assert.doesNotThrow(() => assertPeers(needed, () => true));
  });
});
