// A pass that plans a notice it cannot enqueue says which one and why, instead of leaving
// `planned` and `enqueued` to disagree in silence.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { adminHeaders, json, type TestApp } from '../support/test-app.ts';
import { createClientWithKey, createNoticeApp } from './support.ts';

type Report = {
  planned: number;
  enqueued: number;
  skipped: Array<{ subject: string; client: string; reason: string }>;
};
const run = async (t: TestApp) => {
  const res = await t.app.inject({ method: 'POST', url: '/admin/v1/notices/run', headers: adminHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return json<Report>(res);
};

describe('POST /admin/v1/notices/run names the planned notices it did not enqueue', () => {
  let t: TestApp;
  after(() => t.close());

  it('a key without a client is no-client, a client without contact is no-contact; the told one is not listed', async () => {
    t = await createNoticeApp();
    const told = await createClientWithKey(t.app, { name: 'Acme', contacts: ['dev@acme.test'], keyName: 'k1' });
    const silent = await createClientWithKey(t.app, { name: 'Quiet', keyName: 'k2' });
    const bare = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/api-keys',
      headers: adminHeaders,
      payload: { name: 'bare', roles: ['read'] },
    });
    assert.equal(bare.statusCode, 201, bare.body);
    const { id: bareId, key: bareKey } = json<{ id: string; key: string }>(bare);
    for (const key of [told.key, silent.key, bareKey]) {
      const res = await t.app.inject({ url: '/api/v1/users', headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 200, res.body);
    }

    const report = await run(t);
    assert.equal(report.planned, 3);
    assert.equal(report.enqueued, 1);
    assert.deepEqual(
      [...report.skipped].sort((a, b) => a.reason.localeCompare(b.reason)),
      [
        { subject: 'v1', client: bareId, reason: 'no-client' },
        { subject: 'v1', client: silent.client.id, reason: 'no-contact' },
      ],
    );
    const listed = json<{ data: Array<{ client: string }> }>(
      await t.app.inject({ url: '/admin/v1/notices', headers: adminHeaders }),
    );
    assert.deepEqual(
      listed.data.map((n) => n.client),
      [told.client.id],
    );
  });

  it('the management document describes skipped and its reason codes', async () => {
    const doc = json<{ paths: Record<string, { post?: { responses: Record<string, unknown> } }> }>(
      await t.app.inject({ url: '/admin/v1/openapi.json', headers: adminHeaders }),
    );
    const text = JSON.stringify(doc.paths['/admin/v1/notices/run']?.post?.responses['200']);
    for (const code of ['no-client', 'no-contact', 'already-enqueued']) assert.ok(text.includes(`"${code}"`), code);
  });
});
