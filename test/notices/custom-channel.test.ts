import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
// From the public entry point `versionary/loop`, as an app outside the package would import them.
import { DeliveryFailure, type NoticeChannel } from '../../src/loop/index.ts';
import { adminHeaders, createTestApp, json } from '../support/test-app.ts';
import { createClientWithKey, noticeConfig, runNotices } from './support.ts';

type Listed = { data: Array<{ channel: string; recipient: string; status: string; waitingFor: string | null }> };

/**
 * A chat channel as an app would write one, in a file of its own: it messages each subscribed
 * contact by address (as Microsoft Teams or Slack can), through a chat service's HTTP API. The
 * worker, the outbox and the database know nothing of it.
 */
function createChatChannel(options: { url?: string }): NoticeChannel {
  const channel: NoticeChannel = {
    name: 'chat',
    recipients: (client) =>
      client.contacts.map((contact) => ({ recipient: `chat:${contact.email}`, subscribed: contact.subscribed })),
  };
  if (options.url === undefined) return channel;
  const url = options.url;
  channel.deliver = async ({ id, recipient, payload }) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, to: recipient, text: `${payload.type}: ${payload.data.client.name}` }),
    });
    if (!res.ok) throw new DeliveryFailure({ transient: res.status >= 500, reason: `chat ${res.status}` });
  };
  return channel;
}

describe('a notice channel added by the app', () => {
  const closers: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });
  const env = { VERSIONARY_CONFIG: '/n.json', VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789' };

  it('plans a row per recipient it takes from the client and delivers through its own transport', async () => {
    const messages: Array<{ id: string; to: string; text: string }> = [];
    const chat = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        messages.push(JSON.parse(body) as { id: string; to: string; text: string });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      chat.close();
    });
    const t = await createTestApp({
      files: { '/n.json': noticeConfig() },
      env,
      noticeChannels: [createChatChannel({ url: `http://127.0.0.1:${(chat.address() as AddressInfo).port}/messages` })],
    });
    closers.push(() => t.close());
    const { key } = await createClientWithKey(t.app, {
      name: 'Acme',
      contacts: ['dev@acme.test', 'ops@acme.test'],
      keyName: 'k',
    });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    // The opted-out contact gets a row, kept as unsubscribed, and no message.
    const [client] = json<{ data: Array<{ id: string }> }>(
      await t.app.inject({ url: '/admin/v1/clients', headers: adminHeaders }),
    ).data;
    await t.storage.clients.setContactSubscribed(client!.id, 'ops@acme.test', false);

    const report = await runNotices(t.app);
    assert.equal(report.sent, 1, JSON.stringify(report));
    assert.deepEqual(
      messages.map((m) => [m.to, m.text]),
      [['chat:dev@acme.test', 'version.deprecated: Acme']],
    );
    assert.match(messages[0]!.id, /^ntc_[0-9]+$/);
    const rows = json<Listed>(await t.app.inject({ url: '/admin/v1/notices', headers: adminHeaders })).data.filter(
      (r) => r.channel === 'chat',
    );
    assert.deepEqual(rows.map((r) => [r.recipient, r.status]).sort(), [
      ['chat:dev@acme.test', 'sent'],
      ['chat:ops@acme.test', 'unsubscribed'],
    ]);
  });

  it('without a transport, its rows wait, and the list says so', async () => {
    const t = await createTestApp({
      files: { '/n.json': noticeConfig() },
      env,
      noticeChannels: [createChatChannel({})],
    });
    closers.push(() => t.close());
    const { key } = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'k' });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    await runNotices(t.app);
    const rows = json<Listed>(await t.app.inject({ url: '/admin/v1/notices', headers: adminHeaders })).data;
    assert.deepEqual(
      rows.map((r) => [r.channel, r.status, r.waitingFor]),
      [
        ['email', 'pending', 'mail-transport'],
        ['chat', 'pending', 'transport'],
      ],
    );
  });

  it('is held to the overall delivery deadline like the built-in channels: one that never settles delays no other notice', async (t) => {
    const aborted: string[] = [];
    const delivered: Array<{ to: string; at: number }> = [];
    const channel: NoticeChannel = {
      name: 'chat',
      recipients: (client) =>
        client.contacts.map((contact) => ({ recipient: `chat:${contact.email}`, subscribed: contact.subscribed })),
      deliver: ({ recipient, signal }) =>
        recipient.includes('stuck')
          ? // Never settles: only the worker's deadline can free its slot.
            new Promise<void>(() => {
              signal?.addEventListener('abort', () => aborted.push(recipient));
            })
          : Promise.resolve().then(() => {
              delivered.push({ to: recipient, at: Date.now() });
            }),
    };
    const app = await createTestApp({
      files: { '/n.json': noticeConfig() },
      env: { ...env, VERSIONARY_DELIVERY_TIMEOUT_MS: '1000' },
      noticeChannels: [channel],
    });
    closers.push(() => app.close());
    // The stuck client first, so its row is claimed first.
    for (const [name, contact] of [
      ['Stuck', 'stuck@acme.test'],
      ['Fine', 'fine@acme.test'],
    ] as const) {
      const { key } = await createClientWithKey(app.app, { name, contacts: [contact], keyName: name });
      await app.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    }
    const started = Date.now();
    const report = await Promise.race([
      runNotices(app.app),
      new Promise<never>((_resolve, reject) =>
        setTimeout(() => reject(new Error('the pass waited on a channel that never settles')), 15_000).unref(),
      ),
    ]);
    const took = Date.now() - started;
    t.diagnostic(
      `pass with a channel that never settles: ${took} ms (deadline 1000 ms); the other client's message after ${delivered[0] ? delivered[0].at - started : 'never'} ms`,
    );
    assert.deepEqual(
      delivered.map((d) => d.to),
      ['chat:fine@acme.test'],
      'the other client got its message',
    );
    assert.ok(delivered[0]!.at - started < 900, 'without waiting for the stuck one');
    assert.ok(took >= 900 && took < 5000, `the pass ends at the deadline: ${took} ms`);
    assert.deepEqual(aborted, ['chat:stuck@acme.test'], 'the channel was told to stop');
    const rows = json<{
      data: Array<{ channel: string; recipient: string; status: string; lastError: string | null }>;
    }>(await app.app.inject({ url: '/admin/v1/notices?status=retrying', headers: adminHeaders })).data.filter(
      (r) => r.channel === 'chat',
    );
    assert.deepEqual(
      rows.map((r) => r.recipient),
      ['chat:stuck@acme.test'],
    );
    assert.match(rows[0]!.lastError ?? '', /chat delivery did not finish within 1000 ms/);
    assert.ok(report.retrying >= 1);
  });

  it('counts a delivery as sent when a plain-JS channel returns nothing', async () => {
    const sent: string[] = [];
    // Written without types, as a JavaScript app might: `deliver` returns undefined, not a promise.
    const channel = {
      name: 'chat',
      recipients: (client: { contacts: Array<{ email: string; subscribed: boolean }> }) =>
        client.contacts.map((c) => ({ recipient: `chat:${c.email}`, subscribed: c.subscribed })),
      deliver: ({ recipient }: { recipient: string }) => {
        sent.push(recipient);
      },
    } as unknown as NoticeChannel;
    const t = await createTestApp({ files: { '/n.json': noticeConfig() }, env, noticeChannels: [channel] });
    closers.push(() => t.close());
    const { key } = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'k' });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    await runNotices(t.app);
    assert.deepEqual(sent, ['chat:dev@acme.test']);
    const rows = json<Listed>(await t.app.inject({ url: '/admin/v1/notices', headers: adminHeaders })).data.filter(
      (r) => r.channel === 'chat',
    );
    assert.deepEqual(
      rows.map((r) => r.status),
      ['sent'],
    );
  });

  it('refuses a bad or repeated channel name at start', async () => {
    const bad = { name: 'Chat Ops', recipients: () => [] } satisfies NoticeChannel;
    const twice = { name: 'webhook', recipients: () => [] } satisfies NoticeChannel;
    await assert.rejects(
      createTestApp({ files: { '/n.json': noticeConfig() }, env, noticeChannels: [bad, twice] }),
      (error: Error & { detail?: string }) => {
        assert.match(error.detail ?? error.message, /notice channel "Chat Ops": a name is lower-case/);
        assert.match(error.detail ?? error.message, /notice channel "webhook" is registered twice/);
        return true;
      },
    );
  });
});
