import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createClientWithKey, noticeConfig, runNotices } from './support.ts';

// The development transport: the loop's first email needs no SMTP server, no mail catcher and no
// nodemailer. Each notice is printed on stdout, and counts as sent.
describe('VERSIONARY_SMTP_URL=log:', () => {
  let t: TestApp;
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  before(async () => {
    t = await createTestApp({
      files: { '/notices.json': noticeConfig() },
      env: {
        VERSIONARY_CONFIG: '/notices.json',
        VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789',
        VERSIONARY_SMTP_URL: 'log:',
      },
    });
    const acme = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'acme' });
    const call = await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${acme.key}` } });
    assert.equal(call.statusCode, 200);
  });
  after(async () => {
    process.stdout.write = write;
    await t.close();
  });

  it('prints each notice, with its recipient, subject and the client’s own calls, and marks it sent', async () => {
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    const report = await runNotices(t.app);
    process.stdout.write = write;
    assert.deepEqual(report, { planned: 1, enqueued: 1, sent: 1, retrying: 0, failed: 0, skipped: [] });
    // The test runner may write its own frames on stdout too (Node 24 does): find the mail in them.
    const all = printed.join('');
    const start = all.indexOf('versionary mail (');
    assert.ok(start >= 0, 'the mail was printed on stdout');
    const end = all.indexOf('-'.repeat(72), start);
    const mail = all.slice(start, end < 0 ? undefined : end);
    assert.match(mail, /versionary mail \(VERSIONARY_SMTP_URL=log:, not sent\)/);
    assert.match(mail, /^From: versionary <notices@localhost>$/m);
    assert.match(mail, /^To: dev@acme\.test$/m);
    assert.match(mail, /^Subject: \[v1\] API version v1 is deprecated$/m);
    assert.match(mail, /^List-Unsubscribe: <https:\/\/api\.example\.test\//m);
    assert.match(mail, /- GET \/users: 1 calls?/);
  });
});
