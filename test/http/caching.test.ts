import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, varyOf } from '../support/assertions.ts';
import { createTestApp, createUser, json, snapshotTables, type TestApp } from '../support/test-app.ts';

const mergePatch = { 'content-type': 'application/merge-patch+json' };
const strongTag = /^"[^"]+"$/;

describe('caching and conditional requests', () => {
  let t: TestApp;
  let userId: number;
  before(async () => {
    t = await createTestApp();
    userId = (await createUser(t.app, { body: { name: 'C', email: 'c@example.com' } })).id as number;
    await t.app.inject({ method: 'POST', url: `/api/v2/users/${userId}/posts`, payload: { title: 't', body: 'b' } });
  });
  after(() => t.close());

  it('gives every GET its documented Cache-Control and a strong ETag', async () => {
    for (const url of [
      '/api/v1/users',
      '/api/v2/users',
      `/api/v1/users/${userId}`,
      `/api/v2/users/${userId}`,
      `/api/v2/users/${userId}/posts`,
      `/api/v2/users/${userId}/posts/1`,
      '/api/v2/openapi.json',
    ]) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 200, url);
      // Behind credentials nothing may be stored; the public document may be kept and revalidated.
      assert.equal(res.headers['cache-control'], url.endsWith('openapi.json') ? 'private, no-cache' : 'no-store', url);
      assert.match(String(res.headers.etag), strongTag, url);
    }
  });

  it("derives the single user's ETag from _version, per version, and changes it after PATCH", async () => {
    const v2 = await t.app.inject({ url: `/api/v2/users/${userId}` });
    const version = json(v2)._version as number;
    assert.equal(v2.headers.etag, `"r${version}.v2"`);
    const v1 = await t.app.inject({ url: `/api/v1/users/${userId}` });
    assert.equal(v1.headers.etag, `"r${version}.v1"`);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/users/${userId}`,
      headers: mergePatch,
      payload: JSON.stringify({ nickname: 'cc' }),
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(json(patched)._version, version + 1);
    assert.equal(patched.headers.etag, `"r${version + 1}.v2"`);
    const after = await t.app.inject({ url: `/api/v2/users/${userId}` });
    assert.equal(after.headers.etag, `"r${version + 1}.v2"`);
    assert.notEqual(after.headers.etag, v2.headers.etag);
  });

  it('gives a field selection its own ETag', async () => {
    const whole = await t.app.inject({ url: `/api/v2/users/${userId}` });
    const part = await t.app.inject({ url: `/api/v2/users/${userId}?fields=id` });
    assert.match(String(part.headers.etag), strongTag);
    assert.notEqual(part.headers.etag, whole.headers.etag);
  });

  it('answers 304 without a body when If-None-Match matches, 200 otherwise', async () => {
    for (const url of [
      `/api/v2/users/${userId}`,
      `/api/v1/users/${userId}`,
      '/api/v2/users',
      '/api/v1/users',
      `/api/v2/users/${userId}/posts`,
    ]) {
      const first = await t.app.inject({ url });
      const etag = String(first.headers.etag);
      const hit = await t.app.inject({ url, headers: { 'if-none-match': etag } });
      assert.equal(hit.statusCode, 304, url);
      assert.equal(hit.body, '', url);
      assert.equal(hit.headers.etag, etag, url);
      const listed = await t.app.inject({ url, headers: { 'if-none-match': `"other", ${etag}` } });
      assert.equal(listed.statusCode, 304, url);
      const star = await t.app.inject({ url, headers: { 'if-none-match': '*' } });
      assert.equal(star.statusCode, 304, url);
      const miss = await t.app.inject({ url, headers: { 'if-none-match': '"nope"' } });
      assert.equal(miss.statusCode, 200, url);
      assert.equal(miss.body, first.body, url);
    }
  });

  it("does not answer 304 for another version's tag", async () => {
    const v1 = await t.app.inject({ url: `/api/v1/users/${userId}` });
    const res = await t.app.inject({
      url: `/api/v2/users/${userId}`,
      headers: { 'if-none-match': String(v1.headers.etag) },
    });
    assert.equal(res.statusCode, 200);
  });

  it('keeps Vary: Accept on a 304 of an Accept-versioned request', async () => {
    const headers = { accept: 'application/vnd.versionary.v2+json' };
    const first = await t.app.inject({ url: `/api/users/${userId}`, headers });
    const hit = await t.app.inject({
      url: `/api/users/${userId}`,
      headers: { ...headers, 'if-none-match': String(first.headers.etag) },
    });
    assert.equal(hit.statusCode, 304);
    assert.ok(varyOf(hit).includes('accept'));
  });

  it('answers a list 200 again once the list changed', async () => {
    const first = await t.app.inject({ url: '/api/v2/users' });
    await createUser(t.app, { body: { name: 'New' } });
    const res = await t.app.inject({ url: '/api/v2/users', headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(res.statusCode, 200);
    assert.notEqual(res.headers.etag, first.headers.etag);
  });

  for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
    it(`answers ${method} with a stale If-Match 412 and changes nothing; with the current one it succeeds`, async () => {
      const u = await createUser(t.app, { body: { name: `IfMatch ${method}`, email: 'i@example.com' } });
      await t.app.inject({
        method: 'PATCH',
        url: `/api/v2/users/${u.id}`,
        headers: mergePatch,
        payload: JSON.stringify({ name: 'bumped' }),
      });
      const current = await t.app.inject({ url: `/api/v2/users/${u.id}` });
      const etag = String(current.headers.etag);
      assert.equal(etag, '"r2.v2"');
      const send = (ifMatch: string, v = 'v2') =>
        t.app.inject({
          method,
          url: `/api/${v}/users/${u.id}`,
          headers: {
            'if-match': ifMatch,
            ...(method === 'PATCH' ? mergePatch : method === 'PUT' ? { 'content-type': 'application/json' } : {}),
          },
          ...(method === 'DELETE' ? {} : { payload: JSON.stringify({ name: 'changed' }) }),
        });
      const before = await snapshotTables(t.db);
      for (const stale of ['"r1.v2"', '"r3.v2"', '"garbage"', 'W/"r2.v2"']) {
        const res = await send(stale);
        assertProblem(res, { status: 412, code: 'PRECONDITION_FAILED' });
      }
      assert.equal(await snapshotTables(t.db), before);
      const ok = await send(`"r1.v2", ${etag}`, 'v1');
      assert.equal(ok.statusCode, method === 'DELETE' ? 204 : 200, ok.body);
      assert.equal(ok.headers['cache-control'], 'no-store');
      if (method !== 'DELETE') assert.equal(ok.headers.etag, '"r3.v1"');
    });
  }

  it('accepts If-Match: * on an existing user', async () => {
    const u = await createUser(t.app, { body: { name: 'Star' } });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v2/users/${u.id}`,
      headers: { 'if-match': '*' },
      payload: { name: 'Star2' },
    });
    assert.equal(res.statusCode, 200);
  });

  it('marks writes and errors no-store', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 'W' } });
    assert.equal(created.headers['cache-control'], 'no-store');
    const id = json(created).id;
    const put = await t.app.inject({ method: 'PUT', url: `/api/v2/users/${id}`, payload: { name: 'W2' } });
    assert.equal(put.headers['cache-control'], 'no-store');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v2/users/${id}` });
    assert.equal(del.headers['cache-control'], 'no-store');
    const options = await t.app.inject({ method: 'OPTIONS', url: '/api/v2/users' });
    assert.equal(options.headers['cache-control'], 'no-store');
    for (const url of ['/api/v2/users/999999', '/api/v2/users?limit=0', '/api/users', '/nowhere']) {
      const res = await t.app.inject({ url });
      assert.equal(res.headers['cache-control'], 'no-store', url);
      assert.equal(res.headers.etag, undefined, url);
    }
  });
});
