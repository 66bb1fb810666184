import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DAY_MS } from '../../src/core/lifecycle/index.ts';
import { adminHeaders, json, type TestApp } from '../support/test-app.ts';
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts';
import { createClientWithKey, createNoticeApp, runNotices } from './support.ts';

const none = { authorization: '' };
const oneClick = { ...none, 'content-type': 'application/x-www-form-urlencoded' };

describe('unsubscribe links from real notice emails', () => {
  let smtp: SmtpCatcher;
  let t: TestApp;
  let acme: { client: { id: string }; key: string };
  before(async () => {
    smtp = await startSmtpCatcher();
    t = await createNoticeApp({ smtpUrl: smtp.url });
    acme = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'acme' });
    t.clock.advance(60_000);
    assert.equal(
      (await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${acme.key}` } })).statusCode,
      200,
    );
    assert.equal((await runNotices(t.app)).sent, 1);
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  const linkOf = (index: number) => {
    const url = new URL(
      /<([^>]+)>/.exec(smtp.messages[index]!.headerLines.find((h) => h.key === 'list-unsubscribe')!.line)![1]!,
    );
    return url.pathname + url.search;
  };
  const subscribed = async () =>
    json<{ contacts: Array<{ email: string; subscribed: boolean }> }>(
      await t.app.inject({ url: `/admin/v1/clients/${acme.client.id}`, headers: adminHeaders }),
    ).contacts[0]!.subscribed;

  it('cannot be replayed after the API owner subscribed the contact back', async () => {
    const link = linkOf(0);
    const done = await t.app.inject({
      method: 'POST',
      url: link,
      headers: oneClick,
      payload: 'List-Unsubscribe=One-Click',
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(await subscribed(), false);
    t.clock.advance(60_000);
    const back = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/clients/${acme.client.id}`,
      headers: { ...adminHeaders, 'content-type': 'application/merge-patch+json' },
      payload: { contacts: [{ email: 'dev@acme.test', subscribed: true }] },
    });
    assert.equal(back.statusCode, 200, back.body);
    assert.equal(await subscribed(), true);
    t.clock.advance(60_000);
    for (const method of ['POST', 'GET'] as const) {
      const replay = await t.app.inject({
        method,
        url: link,
        headers: oneClick,
        ...(method === 'POST' ? { payload: 'List-Unsubscribe=One-Click' } : {}),
      });
      assert.equal(replay.statusCode, 403, `${method}: ${replay.body}`);
      assert.match(json<{ detail: string }>(replay).detail, /older than the latest change/);
    }
    assert.equal(await subscribed(), true, 'the old link changed nothing');
  });

  it(`a link from a newer notice works, until it is 90 days old`, async () => {
    t.clock.advance(90 * DAY_MS);
    assert.equal(
      (await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${acme.key}` } })).statusCode,
      200,
    );
    const sent = smtp.messages.length;
    assert.equal((await runNotices(t.app)).sent, 1, 'the 90-day reminder');
    const link = linkOf(sent);
    assert.equal((await t.app.inject({ url: link, headers: none })).statusCode, 200, 'the fresh link shows its page');
    t.clock.advance(90 * DAY_MS + 1);
    const expired = await t.app.inject({
      method: 'POST',
      url: link,
      headers: oneClick,
      payload: 'List-Unsubscribe=One-Click',
    });
    assert.equal(expired.statusCode, 403);
    assert.match(json<{ detail: string }>(expired).detail, /expired \(links work for 90 days\)/);
    assert.equal(await subscribed(), true);
  });
});
