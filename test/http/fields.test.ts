import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, createUser, json, type TestApp } from '../support/test-app.ts';

describe('partial responses (fields)', () => {
  let t: TestApp;
  let userId: number;
  let postId: number;
  before(async () => {
    t = await createTestApp();
    userId = (
      await createUser(t.app, { body: { name: 'F', email: 'f@example.com', nickname: 'ff', status: 'pending' } })
    ).id as number;
    await createUser(t.app, { body: { name: 'G' } });
    postId = json(
      await t.app.inject({ method: 'POST', url: `/api/v2/users/${userId}/posts`, payload: { title: 't', body: 'b' } }),
    ).id as number;
  });
  after(() => t.close());

  it('selects fields of a single user in v1 and v2', async () => {
    assert.deepEqual(json(await t.app.inject({ url: `/api/v1/users/${userId}?fields=id,name` })), {
      id: userId,
      name: 'F',
    });
    assert.deepEqual(json(await t.app.inject({ url: `/api/v2/users/${userId}?fields=id,name` })), {
      id: userId,
      name: 'F',
    });
    assert.deepEqual(json(await t.app.inject({ url: `/api/v2/users/${userId}?fields=email,_version` })), {
      email: 'f@example.com',
      _version: 1,
    });
    assert.deepEqual(json(await t.app.inject({ url: `/api/v1/users/${userId}?fields=status` })), {
      status: 'inactive',
    });
  });

  it('selects fields of each list item, leaving meta intact', async () => {
    assert.deepEqual(json(await t.app.inject({ url: '/api/v1/users?fields=id,name' })), [
      { id: userId, name: 'F' },
      { id: userId + 1, name: 'G' },
    ]);
    const two = json(await t.app.inject({ url: '/api/v2/users?fields=id,name' }));
    assert.deepEqual(two, {
      data: [
        { id: userId, name: 'F' },
        { id: userId + 1, name: 'G' },
      ],
      meta: { limit: 20, nextCursor: null, next: null },
    });
    const sparse = json<{ data: unknown[] }>(await t.app.inject({ url: '/api/v2/users?fields=email' }));
    assert.deepEqual(sparse.data, [{ email: 'f@example.com' }, {}]);
  });

  // The spec: "a parameter named `fields` selects which fields a response contains (partial
  // response)". A list read for a fieldset reads only those columns; what it answers must be the
  // whole list's values, member for member.
  it('answers a sparse list from the columns it keeps with the values of the whole list', async () => {
    type Item = Record<string, unknown>;
    const whole = json<{ data: Item[] }>(await t.app.inject({ url: '/api/v2/users' })).data;
    assert.ok(whole.some((u) => u.displayName === 'ff' && u.status === 'pending'));
    const fieldsets = [
      ['displayName'],
      ['status', 'email'],
      ['nickname', 'name'],
      ['id'],
      ['name', 'displayName', 'id'],
    ];
    for (const names of fieldsets) {
      const sparse = json<{ data: Item[] }>(await t.app.inject({ url: `/api/v2/users?fields=${names.join(',')}` }));
      const expected = whole.map((u) => Object.fromEntries(names.filter((n) => n in u).map((n) => [n, u[n]])));
      assert.deepEqual(sparse.data, expected, names.join(','));
    }
  });

  it('selects fields of posts, single and list', async () => {
    assert.deepEqual(json(await t.app.inject({ url: `/api/v1/users/${userId}/posts/${postId}?fields=id,title` })), {
      id: postId,
      title: 't',
    });
    assert.deepEqual(json(await t.app.inject({ url: `/api/v1/users/${userId}/posts?fields=title` })), [{ title: 't' }]);
    assert.deepEqual(
      json<{ data: unknown }>(await t.app.inject({ url: `/api/v2/users/${userId}/posts?fields=userId` })).data,
      [{ userId }],
    );
  });

  it('selects fields through Accept versioning', async () => {
    const res = await t.app.inject({
      url: `/api/users/${userId}?fields=name`,
      headers: { accept: 'application/vnd.versionary.v1+json' },
    });
    assert.deepEqual(json(res), { name: 'F' });
  });

  it('answers 400 for an unknown field name, naming it', async () => {
    const cases = [
      `/api/v1/users/${userId}?fields=email`,
      `/api/v1/users/${userId}?fields=_version`,
      '/api/v1/users?fields=email',
      '/api/v1/users?fields=nickname',
      '/api/v2/users?fields=_version',
      '/api/v2/users?fields=id,bogus',
      `/api/v2/users/${userId}?fields=password`,
      `/api/v2/users/${userId}?fields=`,
      `/api/v2/users/${userId}?fields=id,,name`,
      `/api/v2/users/${userId}/posts?fields=secret`,
      `/api/v2/users?fields=__proto__`,
      `/api/v2/users?fields=constructor`,
      `/api/v2/users?fields=data`,
    ];
    for (const url of cases) {
      const problem = assertProblem(await t.app.inject({ url }), { status: 400, code: 'UNKNOWN_FIELD' });
      const named =
        decodeURIComponent(url.split('fields=')[1]!)
          .split(',')
          .find((n) => !['id', 'name'].includes(n)) ?? '';
      if (named) assert.ok(problem.detail.includes(named), `${url}: ${problem.detail}`);
      assert.ok(problem.errors?.some((e) => e.pointer === '/query/fields'));
    }
  });

  it('refuses fields on routes without a body to project', async () => {
    assertProblem(await t.app.inject({ method: 'DELETE', url: `/api/v2/users/${userId}?fields=id` }), { status: 400 });
    const still = await t.app.inject({ url: `/api/v2/users/${userId}` });
    assert.equal(still.statusCode, 200);
  });
});
