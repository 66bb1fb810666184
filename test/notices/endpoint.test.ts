import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { testEpoch } from '../support/test-app.ts';
import { createClientWithKey, createNoticeApp, runNotices } from './support.ts';

describe('endpoint deprecation notices', () => {
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('tells only the callers of the deprecated endpoint, with an endpoint.* event', async () => {
    const events: Array<{ type: string; data: { subject: { endpoint: string }; calls: Array<{ endpoint: string }> } }> =
      [];
    let secrets: string[] = [];
    const receiver = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (c: Buffer) => {
        body += c.toString();
      });
      request.on('end', () => {
        const verified = secrets
          .map((s) => {
            try {
              return new Webhook(s).verify(body, request.headers as Record<string, string>);
            } catch {
              return undefined;
            }
          })
          .find(Boolean);
        if (verified) events.push(verified as (typeof events)[number]);
        response.writeHead(verified ? 204 : 400).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    const t = await createNoticeApp({
      now: Date.now(),
      config: {
        endpointDeprecations: [
          {
            version: 'v2',
            method: 'GET',
            path: '/users/{id}/posts',
            sunsetAt: new Date(testEpoch + 400 * 86_400_000).toISOString(),
          },
        ],
      },
    });
    closers.push(() => t.close());
    const reader = await createClientWithKey(t.app, { name: 'Posts reader', webhooks: [url], keyName: 'r' });
    const lister = await createClientWithKey(t.app, { name: 'Lister', webhooks: [url], keyName: 'l' });
    secrets = [reader.client.webhooks[0]!.secret, lister.client.webhooks[0]!.secret];
    await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      payload: { name: 'Ada' },
      headers: { authorization: `Bearer ${reader.key}` },
    });
    await t.app.inject({ url: '/api/v2/users/1/posts', headers: { authorization: `Bearer ${reader.key}` } });
    await t.app.inject({ url: '/api/v2/users', headers: { authorization: `Bearer ${lister.key}` } });
    const report = await runNotices(t.app);
    assert.deepEqual([report.planned, report.sent], [1, 1]);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'endpoint.deprecated');
    assert.equal(events[0]!.data.subject.endpoint, 'GET /users/{id}/posts');
    assert.deepEqual(
      events[0]!.data.calls.map((c) => c.endpoint),
      ['GET /users/{id}/posts'],
    );
  });
});
