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
    recipients: (client) => client.contacts.map((contact) => ({ recipient: `chat:${contact.email}`, subscribed: contact.subscribed })),
  };
  if (options.url === undefined) return channel;
  const url = options.url;
  channel.deliver = async ({ id, recipient, payload }) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, to: recipient, text: `${payload.type}: ${payload.data.client.name}` }) });
    if (!res.ok) throw new DeliveryFailure({ transient: res.status >= 500, reason: `chat ${res.status}` });
  };
  return channel;
}

describe('a notice channel added by the app', () => {
  const closers: Array<() => Promise<void> | void> = [];
  after(async () => { for (const close of closers.reverse()) await close(); });
  const env = { VERSIONARY_CONFIG: '/n.json', VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789' };

  it('plans a row per recipient it takes from the client and delivers through its own transport', async () => {
    const messages: Array<{ id: string; to: string; text: string }> = [];
    const chat = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      request.on('end', () => {
        messages.push(JSON.parse(body) as { id: string; to: string; text: string });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
    closers.push(() => { chat.close(); });
    const t = await createTestApp({ files: { '/n.json': noticeConfig() }, env, noticeChannels: [createChatChannel({ url: `http://127.0.0.1:${(chat.address() as AddressInfo).port}/messages` })] });
    closers.push(() => t.close());
    const { key } = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test', 'ops@acme.test'], keyName: 'k' });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    // The opted-out contact gets a row, kept as unsubscribed, and no message.
    const [client] = json<{ data: Array<{ id: string }> }>(await t.app.inject({ url: '/admin/v1/clients', headers: adminHeaders })).data;
    await t.storage.clients.setContactSubscribed(client!.id, 'ops@acme.test', false);

    const report = await runNotices(t.app);
    assert.equal(report.sent, 1, JSON.stringify(report));
    assert.deepEqual(messages.map((m) => [m.to, m.text]), [['chat:dev@acme.test', 'version.deprecated: Acme']]);
    assert.match(messages[0]!.id, /^ntc_[0-9]+$/);
    const rows = json<Listed>(await t.app.inject({ url: '/admin/v1/notices', headers: adminHeaders })).data.filter((r) => r.channel === 'chat');
    assert.deepEqual(rows.map((r) => [r.recipient, r.status]).sort(), [['chat:dev@acme.test', 'sent'], ['chat:ops@acme.test', 'unsubscribed']]);
  });

  it('without a transport, its rows wait, and the list says so', async () => {
    const t = await createTestApp({ files: { '/n.json': noticeConfig() }, env, noticeChannels: [createChatChannel({})] });
    closers.push(() => t.close());
    const { key } = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'k' });
    await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
    await runNotices(t.app);
    const rows = json<Listed>(await t.app.inject({ url: '/admin/v1/notices', headers: adminHeaders })).data;
    assert.deepEqual(rows.map((r) => [r.channel, r.status, r.waitingFor]), [['email', 'pending', 'mail-transport'], ['chat', 'pending', 'transport']]);
  });

  it('refuses a bad or repeated channel name at start', async () => {
    const bad = { name: 'Chat Ops', recipients: () => [] } satisfies NoticeChannel;
    const twice = { name: 'webhook', recipients: () => [] } satisfies NoticeChannel;
    await assert.rejects(createTestApp({ files: { '/n.json': noticeConfig() }, env, noticeChannels: [bad, twice] }), (error: Error & { detail?: string }) => {
      assert.match(error.detail ?? error.message, /notice channel "Chat Ops": a name is lower-case/);
      assert.match(error.detail ?? error.message, /notice channel "webhook" is registered twice/);
      return true;
    });
  });
});
