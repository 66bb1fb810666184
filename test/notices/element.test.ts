import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NoticePayload } from '../../src/core/notices/index.ts';
import { renderNoticeEmail } from '../../src/loop/notices/render-email.ts';
import { elements } from '../support/deprecation-app.ts';
import { adminHeaders, testEpoch } from '../support/test-app.ts';
import { createClientWithKey, createNoticeApp, runNotices } from './support.ts';

describe('deprecated field and parameter notices', () => {
  it("tell the clients that sent the element, naming it, its replacement, its sunset and the client's calls", async () => {
    const t = await createNoticeApp();
    // The shape the lifecycle config's fieldDeprecations parse to; the runtime reads it live.
    t.config.settings.lifecycle.elementDeprecations = [elements[0]!];
    const sender = await createClientWithKey(t.app, { name: 'Sender', contacts: ['dev@sender.test'], keyName: 's' });
    const other = await createClientWithKey(t.app, { name: 'Other', contacts: ['dev@other.test'], keyName: 'o' });
    const at = testEpoch - 60_000;
    const base = { version: 'v2', at };
    // What the request path records: the element calls of Sender, and a plain v2 call of Other.
    await t.storage.usage.insert([
      { ...base, endpoint: 'POST /users', clientId: sender.client.id, element: 'UserInput.nickname' },
      { ...base, endpoint: 'POST /users', clientId: sender.client.id, element: 'UserInput.nickname' },
      { ...base, endpoint: 'PATCH /users/{id}', clientId: sender.client.id, element: 'UserInput.nickname' },
      { ...base, endpoint: 'POST /users', clientId: other.client.id },
    ]);
    const report = await runNotices(t.app);
    assert.deepEqual(report.skipped, []);
    const rows = await t.storage.notices.list({ limit: 100, afterId: 0 });
    assert.deepEqual(
      rows.items.map((r) => [r.clientId, r.subject, r.kind]),
      [[sender.client.id, 'v2 UserInput.nickname', 'deprecated']],
      'only the client that sent the field is told, once',
    );
    const payload = JSON.parse(rows.items[0]!.payload) as NoticePayload;
    assert.equal(payload.type, 'element.deprecated');
    assert.deepEqual(payload.data.element, {
      kind: 'field',
      name: 'UserInput.nickname',
      replacement: 'UserInput.displayName',
    });
    assert.equal(payload.data.subject.sunsetAt, '2027-01-01T00:00:00.000Z');
    assert.equal(payload.data.subject.deprecatedAt, '2026-01-01T00:00:00.000Z');
    assert.deepEqual(
      payload.data.calls.map((c) => [c.endpoint, c.calls]),
      [
        ['PATCH /users/{id}', 1],
        ['POST /users', 2],
      ],
    );
    const mail = renderNoticeEmail({ payload, unsubscribeUrl: 'https://x.test/u' });
    assert.equal(mail.subject, '[v2] The field UserInput.nickname in v2 is deprecated');
    assert.match(mail.text, /^- POST \/users: 2 calls/m);

    const listed = await t.app.inject({ url: '/admin/v1/notices', headers: adminHeaders });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(
      listed.json().data.map((n: { type: string }) => n.type),
      ['element.deprecated'],
      'the management API names the event as the payload does',
    );
    assert.equal((await runNotices(t.app)).planned, 0, 'told once');
    await t.close();
  });
});
