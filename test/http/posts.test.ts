import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertFieldErrors, assertProblem } from '../support/assertions.ts';
import { createTestApp, createUser, json, snapshotTables, testEpoch, type TestApp } from '../support/test-app.ts';

describe('posts of a user', () => {
  let t: TestApp;
  let userId: number;
  let otherId: number;
  before(async () => {
    t = await createTestApp();
    userId = (await createUser(t.app, { body: { name: 'Author' } })).id as number;
    otherId = (await createUser(t.app, { body: { name: 'Other' } })).id as number;
  });
  after(() => t.close());

  it('creates a post: 201, Location in the same version, createdAt from the clock', async () => {
    for (const v of ['v1', 'v2']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/${v}/users/${userId}/posts`,
        payload: { title: `hello ${v}`, body: 'text' },
      });
      assert.equal(res.statusCode, 201);
      const post = json(res);
      assert.equal(res.headers.location, `/api/${v}/users/${userId}/posts/${post.id}`);
      assert.deepEqual(post, {
        id: post.id,
        userId,
        title: `hello ${v}`,
        body: 'text',
        createdAt: new Date(testEpoch).toISOString(),
      });
      const fetched = await t.app.inject({ url: res.headers.location as string });
      assert.equal(fetched.statusCode, 200);
      assert.deepEqual(json(fetched), post);
    }
  });

  it('lists posts as an array in v1 and { data, meta } in v2', async () => {
    const one = json<Array<{ userId: number }>>(await t.app.inject({ url: `/api/v1/users/${userId}/posts` }));
    assert.ok(Array.isArray(one));
    assert.equal(one.length, 2);
    assert.ok(one.every((p) => p.userId === userId));
    const two = json<{ data: unknown[]; meta: Record<string, unknown> }>(
      await t.app.inject({ url: `/api/v2/users/${userId}/posts` }),
    );
    assert.deepEqual(two.data, one);
    assert.deepEqual(two.meta, { limit: 20, nextCursor: null, next: null });
    const empty = json(await t.app.inject({ url: `/api/v1/users/${otherId}/posts` }));
    assert.deepEqual(empty, []);
  });

  it('answers 404 for the posts of an unknown user, on every posts route, and stores nothing', async () => {
    const before = await snapshotTables(t.db);
    for (const v of ['v1', 'v2']) {
      assertProblem(await t.app.inject({ url: `/api/${v}/users/999999/posts` }), { status: 404, code: 'NOT_FOUND' });
      assertProblem(
        await t.app.inject({ method: 'POST', url: `/api/${v}/users/999999/posts`, payload: { title: 't', body: 'b' } }),
        { status: 404 },
      );
      assertProblem(await t.app.inject({ url: `/api/${v}/users/999999/posts/1` }), { status: 404 });
      assertProblem(await t.app.inject({ method: 'DELETE', url: `/api/${v}/users/999999/posts/1` }), { status: 404 });
      assertProblem(await t.app.inject({ url: `/api/${v}/users/abc/posts` }), { status: 404 });
    }
    assert.equal(await snapshotTables(t.db), before);
  });

  it("does not show one user's post under another user", async () => {
    const post = json(
      await t.app.inject({
        method: 'POST',
        url: `/api/v2/users/${userId}/posts`,
        payload: { title: 'mine', body: '' },
      }),
    );
    assertProblem(await t.app.inject({ url: `/api/v2/users/${otherId}/posts/${post.id}` }), { status: 404 });
    assertProblem(await t.app.inject({ method: 'DELETE', url: `/api/v2/users/${otherId}/posts/${post.id}` }), {
      status: 404,
    });
    assert.equal((await t.app.inject({ url: `/api/v2/users/${userId}/posts/${post.id}` })).statusCode, 200);
  });

  it('answers 404, not 500, for the largest ids the API accepts (int64 on every store)', async () => {
    const big = '999999999999999';
    for (const url of [
      `/api/v1/users/${big}`,
      `/api/v2/users/${big}/posts`,
      `/api/v2/users/${big}/posts/1`,
      `/api/v2/users/${userId}/posts/${big}`,
    ]) {
      assertProblem(await t.app.inject({ url }), { status: 404, code: 'NOT_FOUND' });
    }
    assertProblem(await t.app.inject({ method: 'DELETE', url: `/api/v2/users/${big}` }), { status: 404 });
  });

  it('answers 404 for an unknown or malformed post id', async () => {
    for (const id of ['999999', '0', 'x', '-3', '2.0'])
      assertProblem(await t.app.inject({ url: `/api/v2/users/${userId}/posts/${id}` }), { status: 404 });
  });

  it('validates the post input', async () => {
    const before = await snapshotTables(t.db);
    assertFieldErrors(
      await t.app.inject({ method: 'POST', url: `/api/v2/users/${userId}/posts`, payload: { title: 't' } }),
      '/body/body',
    );
    assertFieldErrors(
      await t.app.inject({ method: 'POST', url: `/api/v2/users/${userId}/posts`, payload: { title: '', body: 'b' } }),
      '/body/title',
    );
    assertFieldErrors(
      await t.app.inject({
        method: 'POST',
        url: `/api/v2/users/${userId}/posts`,
        payload: { title: 't', body: 'b', userId: otherId },
      }),
      '/body/userId',
    );
    assert.equal(await snapshotTables(t.db), before);
  });

  it('deletes a post: 204, then 404', async () => {
    const post = json(
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${userId}/posts`,
        payload: { title: 'bye', body: 'b' },
      }),
    );
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${userId}/posts/${post.id}` });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.equal(
      await t.db
        .selectFrom('posts')
        .select('id')
        .where('id', '=', post.id as number)
        .executeTakeFirst(),
      undefined,
    );
    assertProblem(await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${userId}/posts/${post.id}` }), {
      status: 404,
    });
  });
});
