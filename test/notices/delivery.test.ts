import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { adminHeaders, json, type TestApp } from '../support/test-app.ts';
import { freePort, startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts';
import { createClientWithKey, createNoticeApp, runNotices } from './support.ts';

type Listed = {
  data: Array<{
    recipient: string;
    status: string;
    attempts: number;
    lastError: string | null;
    channel: string;
    waitingFor: string | null;
  }>;
};
const list = async (t: TestApp, query = '') =>
  json<Listed>(await t.app.inject({ url: `/admin/v1/notices${query}`, headers: adminHeaders }));

describe('delivery failures and retries', () => {
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('retries a refused connection and an SMTP 421, then delivers exactly once; an SMTP 550 is final', async () => {
    const port = await freePort();
    const t = await createNoticeApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
    closers.push(() => t.close());
    const { key } = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'k' });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });

    const first = await runNotices(t.app);
    assert.deepEqual([first.sent, first.retrying], [0, 1]);
    let [row] = (await list(t)).data;
    assert.equal(row?.status, 'retrying');
    assert.match(row?.lastError ?? '', /ECONNREFUSED/);

    const smtp: SmtpCatcher = await startSmtpCatcher({ port });
    closers.push(() => smtp.close());
    smtp.failNext(421);
    assert.equal((await runNotices(t.app)).sent, 0, 'not due again before its backoff');
    t.clock.advance(20_000);
    const second = await runNotices(t.app);
    assert.deepEqual([second.sent, second.retrying], [0, 1]);
    [row] = (await list(t)).data;
    assert.match(row?.lastError ?? '', /SMTP 421/);
    t.clock.advance(40_000);
    assert.equal((await runNotices(t.app)).sent, 1);
    t.clock.advance(3_600_000);
    assert.equal((await runNotices(t.app)).sent, 0);
    assert.equal(smtp.messages.length, 1, 'one delivery, never two');
    [row] = (await list(t)).data;
    assert.deepEqual([row?.status, row?.attempts, row?.lastError], ['sent', 3, null]);

    const { key: other } = await createClientWithKey(t.app, {
      name: 'Gone',
      contacts: ['nobody@gone.test'],
      keyName: 'k2',
    });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${other}` } });
    smtp.failNext(550);
    assert.equal((await runNotices(t.app)).failed, 1);
    const failed = (await list(t, '?status=failed')).data;
    assert.deepEqual(
      failed.map((n) => n.recipient),
      ['nobody@gone.test'],
    );
    assert.match(failed[0]!.lastError ?? '', /SMTP 550/);
    t.clock.advance(86_400_000);
    await runNotices(t.app);
    assert.equal(smtp.messages.length, 1, 'a permanent failure is not retried');
  });

  it('signs webhooks per Standard Webhooks; a receiver failing the first tries gets the event once', async () => {
    const received: Array<{ id: string; type: string }> = [];
    let answers = [503, 500];
    let secret = '';
    const receiver = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const status = answers.shift();
        if (status) return void response.writeHead(status).end();
        try {
          const event = new Webhook(secret).verify(body, request.headers as Record<string, string>) as { type: string };
          received.push({ id: String(request.headers['webhook-id']), type: event.type });
          response.writeHead(204).end();
        } catch {
          response.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    // The receiver checks timestamps against the wall clock, so this app's clock is the real one.
    const t = await createNoticeApp({ now: Date.now() });
    closers.push(() => t.close());
    const { client, key } = await createClientWithKey(t.app, { name: 'Hooked', webhooks: [url], keyName: 'k' });
    secret = client.webhooks[0]!.secret;
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    assert.equal((await runNotices(t.app)).retrying, 1);
    t.clock.advance(10_000);
    assert.equal((await runNotices(t.app)).retrying, 1);
    t.clock.advance(20_000);
    assert.equal((await runNotices(t.app)).sent, 1);
    t.clock.advance(600_000);
    await runNotices(t.app);
    assert.equal(received.length, 1);
    assert.equal(received[0]!.type, 'version.deprecated');
    assert.match(received[0]!.id, /^ntc_[0-9]+$/);

    answers = [410];
    const second = await createClientWithKey(t.app, { name: 'Rejects', webhooks: [url], keyName: 'k3' });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${second.key}` } });
    assert.equal((await runNotices(t.app)).failed, 1, 'HTTP 4xx is final');
    assert.match((await list(t, '?status=failed')).data[0]?.lastError ?? '', /HTTP 410/);

    answers = [];
    secret = 'whsec_' + Buffer.from('not the real secret at all, 32b').toString('base64');
    const forged = await createClientWithKey(t.app, { name: 'Forged check', webhooks: [url], keyName: 'k4' });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${forged.key}` } });
    assert.equal((await runNotices(t.app)).failed, 1, 'a receiver holding another secret refuses the signature');
  });

  it('loses nothing when a worker dies mid-delivery: its lease ends and another instance sends the notice once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'versionary-notices-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const databasePath = join(dir, 'v.db');
    const first = await createNoticeApp({ databasePath });
    const { key } = await createClientWithKey(first.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'k' });
    await first.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    assert.equal((await runNotices(first.app)).enqueued, 1);
    // A worker takes the row and dies before it records anything.
    const taken = await first.storage.notices.claim({
      owner: 'worker-that-died',
      now: first.clock.now(),
      leaseMs: 300_000,
      limit: 10,
      channels: ['email'],
    });
    assert.equal(taken.length, 1);
    await first.close();

    const smtp = await startSmtpCatcher();
    closers.push(() => smtp.close());
    const second = await createNoticeApp({ databasePath, smtpUrl: smtp.url });
    closers.push(() => second.close());
    assert.equal((await runNotices(second.app)).sent, 0, 'the lease still holds');
    second.clock.advance(300_001);
    assert.equal((await runNotices(second.app)).sent, 1);
    second.clock.advance(3_600_000);
    await runNotices(second.app);
    assert.equal(smtp.messages.length, 1);
    assert.deepEqual(smtp.messages[0]!.envelopeTo, ['dev@acme.test']);
  });

  it('keeps email notices waiting for a mail transport when no SMTP server is configured', async () => {
    const t = await createNoticeApp();
    closers.push(() => t.close());
    const { key } = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'k' });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    assert.deepEqual(await runNotices(t.app), {
      planned: 1,
      enqueued: 1,
      sent: 0,
      retrying: 0,
      failed: 0,
      skipped: [],
    });
    const [row] = (await list(t)).data;
    assert.deepEqual(
      [row?.channel, row?.status, row?.waitingFor, row?.attempts],
      ['email', 'pending', 'mail-transport', 0],
    );
  });

  it('answers bad list queries with 400 problems', async () => {
    const t = await createNoticeApp();
    closers.push(() => t.close());
    for (const query of [
      '?status=bogus',
      '?kind=spam',
      '?limit=0',
      '?limit=9999',
      '?after=-1',
      '?extra=1',
      '?limit=abc',
    ]) {
      const res = await t.app.inject({ url: `/admin/v1/notices${query}`, headers: adminHeaders });
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    }
    const anonymous = await t.app.inject({ url: '/admin/v1/notices', headers: { authorization: '' } });
    assert.equal(anonymous.statusCode, 401);
  });
});
