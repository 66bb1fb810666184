import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertFieldErrors, assertProblem } from '../support/assertions.ts';
import { createTestApp, createUser, json, snapshotTables, type TestApp } from '../support/test-app.ts';

const mergePatch = { 'content-type': 'application/merge-patch+json' };

describe('users', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const row = async (id: number) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('POST /users', () => {
    it('creates a v2 user: 201, Location in v2, body with _version 1, stored', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        payload: { name: 'Grace', email: 'grace@example.com', nickname: 'gh', status: 'pending' },
      });
      assert.equal(res.statusCode, 201);
      const body = json(res);
      assert.equal(typeof body.id, 'number');
      assert.equal(res.headers.location, `/api/v2/users/${body.id}`);
      assert.deepEqual(body, {
        id: body.id,
        name: 'Grace',
        email: 'grace@example.com',
        nickname: 'gh',
        displayName: 'gh',
        status: 'pending',
        _version: 1,
      });
      const stored = await row(body.id as number);
      assert.equal(stored.email, 'grace@example.com');
      assert.equal(stored.status, 'pending');
      const fetched = await t.app.inject({ url: res.headers.location as string });
      assert.deepEqual(json(fetched), body);
    });

    it('creates a v1 user: 201, Location in v1, only v1 fields, status defaults to active', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/users', payload: { name: 'Linus' } });
      assert.equal(res.statusCode, 201);
      const body = json(res);
      assert.equal(res.headers.location, `/api/v1/users/${body.id}`);
      assert.deepEqual(body, { id: body.id, name: 'Linus', status: 'active' });
    });

    it('refuses v2-only input in v1 (email, nickname, status pending) and stores nothing', async () => {
      const before = await snapshotTables(t.db);
      assertFieldErrors(
        await t.app.inject({ method: 'POST', url: '/api/v1/users', payload: { name: 'A', email: 'a@example.com' } }),
        '/body/email',
      );
      assertFieldErrors(
        await t.app.inject({ method: 'POST', url: '/api/v1/users', payload: { name: 'A', nickname: 'a' } }),
        '/body/nickname',
      );
      assertFieldErrors(
        await t.app.inject({ method: 'POST', url: '/api/v1/users', payload: { name: 'A', status: 'pending' } }),
        '/body/status',
      );
      assert.equal(await snapshotTables(t.db), before);
    });

    it('refuses missing and wrong-typed fields with field errors', async () => {
      assertFieldErrors(await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: {} }), '/body/name');
      assertFieldErrors(
        await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 42 } }),
        '/body/name',
      );
      assertFieldErrors(
        await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: '' } }),
        '/body/name',
      );
      assertFieldErrors(
        await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 'A', email: 'not-an-email' } }),
        '/body/email',
      );
      assertFieldErrors(
        await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 'A', status: 'gone' } }),
        '/body/status',
      );
      assertFieldErrors(
        await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 'A', _version: 3 } }),
        '/body/_version',
      );
    });
  });

  describe('GET /users/{id}', () => {
    it('shows a v2 pending user as inactive in v1, without v2-only fields', async () => {
      const created = await createUser(t.app, {
        body: { name: 'P', email: 'p@example.com', nickname: 'pp', status: 'pending' },
      });
      const res = await t.app.inject({ url: `/api/v1/users/${created.id}` });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(json(res), { id: created.id, name: 'P', status: 'inactive' });
      for (const hidden of ['email', 'nickname', '_version', 'pending'])
        assert.ok(!res.body.includes(hidden), `v1 body shows ${hidden}`);
    });

    it('omits unset optional fields in v2', async () => {
      const created = await createUser(t.app, { body: { name: 'Bare' } });
      assert.deepEqual(created, { id: created.id, name: 'Bare', status: 'active', _version: 1 });
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of ['999999', '0', '-1', '1.5', 'abc', '1e3', '%20', '01', 'ω', '9'.repeat(30)]) {
        for (const v of ['v1', 'v2'])
          assertProblem(await t.app.inject({ url: `/api/${v}/users/${id}` }), { status: 404, code: 'NOT_FOUND' });
      }
      // An encoded control character is refused before routing, as an ambiguous path: an invalid URI, 404 by the spec.
      for (const v of ['v1', 'v2'])
        assertProblem(await t.app.inject({ url: `/api/${v}/users/%00` }), { status: 404, code: 'NOT_FOUND' });
    });
  });

  describe('PUT /users/{id}', () => {
    it('replaces entirely in v2: omitted optional fields are cleared, _version bumps', async () => {
      const u = await createUser(t.app, {
        body: { name: 'R', email: 'r@example.com', nickname: 'rr', status: 'pending' },
      });
      const res = await t.app.inject({ method: 'PUT', url: `/api/v2/users/${u.id}`, payload: { name: 'R2' } });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(json(res), { id: u.id, name: 'R2', status: 'active', _version: 2 });
      const stored = await row(u.id as number);
      assert.equal(stored.email, null);
      assert.equal(stored.nickname, null);
      assert.equal(stored.revision, 2);
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('in v1 keeps the v2-only fields it cannot express', async () => {
      const u = await createUser(t.app, {
        body: { name: 'K', email: 'k@example.com', nickname: 'kk', status: 'active' },
      });
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/users/${u.id}`,
        payload: { name: 'K2', status: 'inactive' },
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(json(res), { id: u.id, name: 'K2', status: 'inactive' });
      const v2 = json(await t.app.inject({ url: `/api/v2/users/${u.id}` }));
      assert.deepEqual(v2, {
        id: u.id,
        name: 'K2',
        email: 'k@example.com',
        nickname: 'kk',
        displayName: 'kk',
        status: 'inactive',
        _version: 2,
      });
    });

    it('refuses v2-only fields in a v1 PUT and a body without name', async () => {
      const u = await createUser(t.app, { body: { name: 'Q' } });
      const before = await snapshotTables(t.db);
      assertFieldErrors(
        await t.app.inject({
          method: 'PUT',
          url: `/api/v1/users/${u.id}`,
          payload: { name: 'Q', email: 'q@example.com' },
        }),
        '/body/email',
      );
      assertFieldErrors(
        await t.app.inject({ method: 'PUT', url: `/api/v1/users/${u.id}`, payload: { name: 'Q', status: 'pending' } }),
        '/body/status',
      );
      assertFieldErrors(
        await t.app.inject({ method: 'PUT', url: `/api/v2/users/${u.id}`, payload: { email: 'q@example.com' } }),
        '/body/name',
      );
      assert.equal(await snapshotTables(t.db), before);
    });

    it('answers 404 for an unknown user', async () => {
      assertProblem(await t.app.inject({ method: 'PUT', url: '/api/v2/users/999999', payload: { name: 'x' } }), {
        status: 404,
      });
    });
  });

  describe('PATCH /users/{id} (JSON Merge Patch)', () => {
    it('changes only the named fields and bumps _version', async () => {
      const u = await createUser(t.app, { body: { name: 'M', email: 'm@example.com', nickname: 'mm' } });
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/v2/users/${u.id}`,
        headers: mergePatch,
        payload: JSON.stringify({ nickname: 'm2' }),
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(json(res), {
        id: u.id,
        name: 'M',
        email: 'm@example.com',
        nickname: 'm2',
        displayName: 'm2',
        status: 'active',
        _version: 2,
      });
    });

    it('clears email with null', async () => {
      const u = await createUser(t.app, { body: { name: 'N', email: 'n@example.com' } });
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/v2/users/${u.id}`,
        headers: mergePatch,
        payload: JSON.stringify({ email: null }),
      });
      assert.equal(res.statusCode, 200);
      assert.equal(Object.hasOwn(json(res), 'email'), false);
      assert.equal((await row(u.id as number)).email, null);
    });

    it('in v1 leaves v2-only fields alone and cannot set pending', async () => {
      const u = await createUser(t.app, { body: { name: 'O', email: 'o@example.com' } });
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${u.id}`,
        headers: mergePatch,
        payload: JSON.stringify({ status: 'inactive' }),
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(json(res), { id: u.id, name: 'O', status: 'inactive' });
      assert.equal((await row(u.id as number)).email, 'o@example.com');
      assertFieldErrors(
        await t.app.inject({
          method: 'PATCH',
          url: `/api/v1/users/${u.id}`,
          headers: mergePatch,
          payload: JSON.stringify({ status: 'pending' }),
        }),
        '/body/status',
      );
      assertFieldErrors(
        await t.app.inject({
          method: 'PATCH',
          url: `/api/v1/users/${u.id}`,
          headers: mergePatch,
          payload: JSON.stringify({ email: null }),
        }),
        '/body/email',
      );
    });

    it('refuses a null name (name is required, not clearable)', async () => {
      const u = await createUser(t.app, { body: { name: 'Z' } });
      assertFieldErrors(
        await t.app.inject({
          method: 'PATCH',
          url: `/api/v2/users/${u.id}`,
          headers: mergePatch,
          payload: JSON.stringify({ name: null }),
        }),
        '/body/name',
      );
    });

    it('answers 415 for application/json, with Accept-Patch', async () => {
      const u = await createUser(t.app, { body: { name: 'J' } });
      const before = await snapshotTables(t.db);
      const res = await t.app.inject({ method: 'PATCH', url: `/api/v2/users/${u.id}`, payload: { name: 'J2' } });
      assertProblem(res, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      assert.equal(res.headers['accept-patch'], 'application/merge-patch+json');
      assert.equal(await snapshotTables(t.db), before);
    });

    it('answers 404 for an unknown user', async () => {
      assertProblem(
        await t.app.inject({ method: 'PATCH', url: '/api/v2/users/999999', headers: mergePatch, payload: '{}' }),
        { status: 404 },
      );
    });
  });

  describe('DELETE /users/{id}', () => {
    it('answers 204 with no body, removes the user and their posts; a repeat is 404', async () => {
      const u = await createUser(t.app, { body: { name: 'D' } });
      await t.app.inject({ method: 'POST', url: `/api/v2/users/${u.id}/posts`, payload: { title: 't', body: 'b' } });
      const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${u.id}` });
      assert.equal(res.statusCode, 204);
      assert.equal(res.body, '');
      assert.equal(
        await t.db
          .selectFrom('users')
          .select('id')
          .where('id', '=', u.id as number)
          .executeTakeFirst(),
        undefined,
      );
      assert.equal(
        (
          await t.db
            .selectFrom('posts')
            .select('id')
            .where('user_id', '=', u.id as number)
            .execute()
        ).length,
        0,
      );
      assertProblem(await t.app.inject({ method: 'DELETE', url: `/api/v1/users/${u.id}` }), {
        status: 404,
        code: 'NOT_FOUND',
      });
      assertProblem(await t.app.inject({ url: `/api/v2/users/${u.id}` }), { status: 404 });
    });
  });

  describe('GET /users', () => {
    it('lists as an array in v1 and as { data, meta } in v2, each item in its version', async () => {
      const fresh = await createTestApp();
      try {
        await createUser(fresh.app, { body: { name: 'A', email: 'a@example.com', status: 'pending' } });
        await createUser(fresh.app, { version: 'v1', body: { name: 'B' } });
        const one = await fresh.app.inject({ url: '/api/v1/users' });
        assert.equal(one.statusCode, 200);
        assert.deepEqual(json(one), [
          { id: 1, name: 'A', status: 'inactive' },
          { id: 2, name: 'B', status: 'active' },
        ]);
        const two = await fresh.app.inject({ url: '/api/v2/users' });
        assert.deepEqual(json(two), {
          data: [
            { id: 1, name: 'A', email: 'a@example.com', status: 'pending' },
            { id: 2, name: 'B', status: 'active' },
          ],
          meta: { limit: 20, nextCursor: null, next: null },
        });
        assert.equal(two.headers.link, undefined);
      } finally {
        await fresh.close();
      }
    });
  });
});
