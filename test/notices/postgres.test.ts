import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { createFixedClock } from '../../src/core/clock/index.ts';
import { buildApp } from '../../src/compose/build-app.ts';
import { referenceProduct } from '../../src/reference/product.ts';
import { loadConfig } from '../../src/loop/settings.ts';
import { openPostgresStorage } from '../../src/storage/postgres/open-postgres-storage.ts';
import { adminHeaders, testAdminKey, testEpoch } from '../support/test-app.ts';
import { startSmtpCatcher } from './smtp-catcher.ts';
import { createClientWithKey, noticeConfig, runNotices } from './support.ts';

const url = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `vtest_notices_${randomBytes(6).toString('hex')}`;

describe('notices on PostgreSQL', () => {
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  });

  it('two instances on one database plan and send every notice exactly once', async () => {
    const smtp = await startSmtpCatcher();
    closers.push(() => smtp.close());
    const clock = createFixedClock(testEpoch);
    const instance = async () => {
      const storage = await openPostgresStorage({ url, schema, max: 4 });
      const config = loadConfig({
        env: {
          DATABASE_URL: url,
          LOG_LEVEL: 'silent',
          VERSIONARY_ADMIN_KEY: testAdminKey,
          VERSIONARY_CONFIG: '/n.json',
          VERSIONARY_SMTP_URL: smtp.url,
          VERSIONARY_MAIL_FROM: 'notices@versionary.test',
          VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789',
        },
        readFile: () => noticeConfig(),
      });
      const app = await buildApp({ product: referenceProduct(), config, storage, clock });
      await app.ready();
      closers.push(async () => {
        await app.close();
        await storage.close();
      });
      return app;
    };
    const a = await instance();
    const b = await instance();
    const clients = 12;
    for (let i = 0; i < clients; i++) {
      const { key } = await createClientWithKey(a, {
        name: `Client ${i}`,
        contacts: [`one@c${i}.test`, `two@c${i}.test`],
        keyName: `key ${i}`,
      });
      await (i % 2 === 0 ? a : b).inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    }
    const reports = await Promise.all([runNotices(a), runNotices(b), runNotices(a), runNotices(b)]);
    const sent = reports.reduce((n, r) => n + r.sent, 0);
    assert.equal(reports.reduce((n, r) => n + r.planned, 0) >= clients, true);
    assert.equal(sent, clients * 2);
    assert.equal(smtp.messages.length, clients * 2, 'every contact mailed');
    const recipients = smtp.messages.flatMap((m) => m.envelopeTo);
    assert.equal(new Set(recipients).size, recipients.length, 'nobody mailed twice');
    const listed = await a.inject({ url: '/admin/v1/notices?status=sent&limit=500', headers: adminHeaders });
    assert.equal((listed.json() as { data: unknown[] }).data.length, clients * 2);
  });
});
