import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DAY_MS } from '../../src/core/lifecycle/index.ts';
import { adminHeaders, json, type TestApp } from '../support/test-app.ts';
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts';
import { createClientWithKey, createNoticeApp, runNotices } from './support.ts';

describe('email notices over a real SMTP server', () => {
  let smtp: SmtpCatcher;
  let t: TestApp;
  let acme: { client: { id: string }; key: string };
  before(async () => {
    smtp = await startSmtpCatcher();
    t = await createNoticeApp({ smtpUrl: smtp.url });
    acme = await createClientWithKey(t.app, {
      name: 'Acme <Corp>',
      contacts: ['dev@acme.test', 'ops@acme.test'],
      keyName: 'acme-nightly-sync',
    });
    const quiet = await createClientWithKey(t.app, {
      name: 'Quiet',
      contacts: ['dev@quiet.test'],
      keyName: 'quiet-key',
    });
    const as = (key: string, ua: string) => ({ authorization: `Bearer ${key}`, 'user-agent': ua });
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await t.app.inject({ url: '/api/v1/users', headers: as(acme.key, 'acme-sync/2.1') })).statusCode,
        200,
      );
    t.clock.advance(60_000);
    await t.app.inject({ url: '/api/v1/users/1/posts', headers: as(acme.key, 'acme-sync/2.2') });
    await t.app.inject({ url: '/api/v2/users', headers: as(quiet.key, 'quiet/1') });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  it('mails every contact of the client that called v1, with its own calls, the impact and unsubscribe headers', async () => {
    const report = await runNotices(t.app);
    assert.deepEqual(report, { planned: 1, enqueued: 2, sent: 2, retrying: 0, failed: 0, skipped: [] });
    assert.deepEqual(
      smtp.messages
        .map((m) => m.envelopeTo)
        .flat()
        .sort(),
      ['dev@acme.test', 'ops@acme.test'],
    );
    const mail = smtp.messages.find((m) => m.envelopeTo.includes('dev@acme.test'))!;
    assert.equal(mail.subject, '[v1] API version v1 is deprecated');
    assert.equal(mail.from?.value[0]?.address, 'notices@versionary.test');
    const text = mail.text ?? '';
    assert.match(text, /Sunset date: 2026-07-14T12:00:00\.000Z/);
    assert.match(text, /Days left: 180/);
    assert.match(text, /Replacement: v2 \(https:\/\/api\.example\.test\/api\/v2\/openapi\.json\)/);
    assert.match(text, /Migration guide: https:\/\/api\.example\.test\/api\/versions\/v1\/migration-guide/);
    assert.match(text, /^What breaks for you: https:\/\/api\.example\.test\/portal\/breaks\?from=v1&to=v2$/m);
    assert.match(
      text,
      /- GET \/users: 3 calls, first 2026-01-15T12:00:00\.000Z, last 2026-01-15T12:00:00\.000Z, key acme-nightly-sync, User-Agent acme-sync\/2\.1/,
    );
    assert.match(text, /- GET \/users\/\{id\}\/posts: 1 call, .* User-Agent acme-sync\/2\.2/);
    assert.match(text, /2 breaking changes affect your calls:/);
    assert.doesNotMatch(text, new RegExp(acme.key), 'the key secret never appears');
    const html = String(mail.html);
    assert.match(html, /To Acme &lt;Corp> \(/, 'the HTML part escapes what it shows');
    assert.doesNotMatch(html, /<Corp>/);
    assert.match(html, /<td>GET \/users<\/td><td>3<\/td>/);
    assert.match(html, /acme-nightly-sync/);
    assert.doesNotMatch(html, new RegExp(acme.key));
    assert.equal(
      mail.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line,
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    const raw = mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line ?? '';
    assert.match(
      raw.replace(/\r\n\s+/g, ' '),
      /^List-Unsubscribe: <https:\/\/api\.example\.test\/notices\/unsubscribe\?client=cl_[0-9a-f]+&contact=dev%40acme\.test&token=[A-Za-z0-9_-]+>$/,
    );
    assert.match(text, /Unsubscribe: https:\/\/api\.example\.test\/notices\/unsubscribe\?/);
  });

  it('follows the one-click unsubscribe link, refuses forged ones, and mails that contact no more', async () => {
    const mail = smtp.messages.find((m) => m.envelopeTo.includes('dev@acme.test'))!;
    const link = /<([^>]+)>/.exec(mail.headerLines.find((h) => h.key === 'list-unsubscribe')!.line)![1]!;
    const url = new URL(link);
    assert.equal(url.origin, 'https://api.example.test');
    const forged = new URL(link);
    forged.searchParams.set('contact', 'ops@acme.test');
    const refused = await t.app.inject({
      method: 'POST',
      url: forged.pathname + forged.search,
      headers: { authorization: '' },
    });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(
      (
        await t.app.inject({
          method: 'POST',
          url: '/notices/unsubscribe?client=x&contact=y@z.test',
          headers: { authorization: '' },
        })
      ).statusCode,
      400,
    );
    const page = await t.app.inject({ url: url.pathname + url.search, headers: { authorization: '' } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<form method="post"/);
    const done = await t.app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { authorization: '', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.deepEqual(json(done), { unsubscribed: true, contact: 'dev@acme.test' });

    t.clock.set(t.clock.now() + 90 * DAY_MS);
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${acme.key}` } });
    const before = smtp.messages.length;
    const report = await runNotices(t.app);
    assert.equal(report.sent, 1);
    const fresh = smtp.messages.slice(before);
    assert.deepEqual(fresh.map((m) => m.envelopeTo).flat(), ['ops@acme.test']);
    assert.match(fresh[0]!.subject ?? '', /v1 will be removed in 90 days/);
    const listed = json<{ data: Array<{ recipient: string; status: string; kind: string }> }>(
      await t.app.inject({ url: `/admin/v1/notices?client=${acme.client.id}&kind=reminder`, headers: adminHeaders }),
    );
    assert.deepEqual(listed.data.map((n) => `${n.recipient} ${n.status}`).sort(), [
      'dev@acme.test unsubscribed',
      'ops@acme.test sent',
    ]);
  });
});
