import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem } from '../support/assertions.ts';
import { SignJWT } from 'jose';
import { adminHeaders, createTestApp, testEpoch } from '../support/test-app.ts';
import { createClient, createClientsTestApp, createKey } from './support.ts';

async function setup() {
  const t = await createClientsTestApp();
  const acme = await createClient(t.app, { name: 'Acme' });
  const globex = await createClient(t.app, { name: 'Globex' });
  const a = await createKey(t.app, { name: 'acme', roles: ['read', 'write'], clientId: acme.id });
  const b = await createKey(t.app, { name: 'globex', roles: ['read', 'write'], clientId: globex.id });
  const loose = await createKey(t.app, { name: 'loose', roles: ['read', 'write'] });
  const create = async (headers: Record<string, string>, name: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers,
      payload: { name, email: `${name}@example.test` },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as number;
  };
  const ids = {
    acme: await create(a.headers, 'acme-user'),
    globex: await create(b.headers, 'globex-user'),
    loose: await create(loose.headers, 'loose-user'),
    admin: await create(adminHeaders, 'admin-user'),
  };
  return { t, acme, globex, a, b, loose, ids };
}

const names = (body: unknown) =>
  (Array.isArray(body) ? body : (body as { data: unknown[] }).data).map((u) => (u as { name: string }).name).sort();

describe("object-level authorization: resources belong to the creating key's client", () => {
  it("lists only the caller's own users; admins see all", async () => {
    const { t, a, b, loose } = await setup();
    assert.deepEqual(names((await t.app.inject({ url: '/api/v2/users', headers: a.headers })).json()), ['acme-user']);
    assert.deepEqual(
      names((await t.app.inject({ url: '/api/v1/users', headers: b.headers })).json()),
      ['globex-user'],
      'v1 lists are scoped too',
    );
    assert.deepEqual(
      names((await t.app.inject({ url: '/api/v2/users', headers: loose.headers })).json()),
      ['admin-user', 'loose-user'],
      'keys without a client share the resources made without one',
    );
    assert.deepEqual(names((await t.app.inject({ url: '/api/v2/users', headers: adminHeaders })).json()), [
      'acme-user',
      'admin-user',
      'globex-user',
      'loose-user',
    ]);
    assert.equal(
      (await t.storage.users.get((await t.storage.users.list({ limit: 10, afterId: 0 })).items[0]!.id))?.clientId !==
        undefined,
      true,
    );
    await t.close();
  });

  it("answers another client's user and its posts with 404, for every method, and changes nothing", async () => {
    const { t, a, b, ids } = await setup();
    const post = await t.app.inject({
      method: 'POST',
      url: `/api/v2/users/${ids.globex}/posts`,
      headers: b.headers,
      payload: { title: 't', body: 'b' },
    });
    assert.equal(post.statusCode, 201, post.body);
    const postId = post.json().id as number;
    const before =
      JSON.stringify(await t.db.selectFrom('users').selectAll().orderBy('id').execute()) +
      JSON.stringify(await t.db.selectFrom('posts').selectAll().orderBy('id').execute());
    const attempts: Array<{ method: string; url: string; payload?: object; headers?: Record<string, string> }> = [
      { method: 'GET', url: `/api/v2/users/${ids.globex}` },
      { method: 'GET', url: `/api/v1/users/${ids.globex}` },
      { method: 'PUT', url: `/api/v2/users/${ids.globex}`, payload: { name: 'taken' } },
      {
        method: 'PATCH',
        url: `/api/v2/users/${ids.globex}`,
        payload: { name: 'taken' },
        headers: { 'content-type': 'application/merge-patch+json' },
      },
      { method: 'DELETE', url: `/api/v2/users/${ids.globex}` },
      { method: 'DELETE', url: `/api/v2/users/${ids.globex}`, headers: { 'if-match': '"r1.v2"' } },
      {
        method: 'PUT',
        url: `/api/v2/users/${ids.globex}`,
        payload: { name: 'taken' },
        headers: { 'if-match': '"r9.v2"' },
      },
      { method: 'GET', url: `/api/v2/users/${ids.globex}/posts` },
      { method: 'POST', url: `/api/v2/users/${ids.globex}/posts`, payload: { title: 'x', body: 'y' } },
      { method: 'GET', url: `/api/v2/users/${ids.globex}/posts/${postId}` },
      { method: 'DELETE', url: `/api/v2/users/${ids.globex}/posts/${postId}` },
    ];
    for (const attempt of attempts) {
      const res = await t.app.inject({
        method: attempt.method as 'GET',
        url: attempt.url,
        headers: { ...a.headers, ...attempt.headers },
        ...(attempt.payload ? { payload: attempt.payload } : {}),
      });
      const problem = assertProblem(res, { status: 404, code: 'NOT_FOUND' });
      assert.doesNotMatch(problem.detail, /globex|another client/i, 'the problem does not tell the user exists');
    }
    const after =
      JSON.stringify(await t.db.selectFrom('users').selectAll().orderBy('id').execute()) +
      JSON.stringify(await t.db.selectFrom('posts').selectAll().orderBy('id').execute());
    assert.equal(after, before, 'nothing changed');
    // The same answer as for an id that does not exist at all.
    const missing = await t.app.inject({ url: '/api/v2/users/999999', headers: a.headers });
    assert.equal(
      missing.json().detail.replace('999999', 'N'),
      (await t.app.inject({ url: `/api/v2/users/${ids.globex}`, headers: a.headers }))
        .json()
        .detail.replace(String(ids.globex), 'N'),
    );
    await t.close();
  });

  it("lets each client work on its own users, and admins on everyone's", async () => {
    const { t, a, loose, ids } = await setup();
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/users/${ids.acme}`,
      headers: { ...a.headers, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ nickname: 'ac' }),
    });
    assert.equal(patch.statusCode, 200, patch.body);
    const post = await t.app.inject({
      method: 'POST',
      url: `/api/v2/users/${ids.acme}/posts`,
      headers: a.headers,
      payload: { title: 'hello', body: 'b' },
    });
    assert.equal(post.statusCode, 201);
    assert.equal(
      (await t.app.inject({ url: `/api/v2/users/${ids.acme}/posts`, headers: a.headers })).json().data.length,
      1,
    );
    assertProblem(await t.app.inject({ url: `/api/v2/users/${ids.acme}/posts`, headers: loose.headers }), {
      status: 404,
    });
    assert.equal(
      (await t.app.inject({ url: `/api/v2/users/${ids.acme}/posts/${post.json().id}`, headers: adminHeaders }))
        .statusCode,
      200,
      'admins see every post',
    );
    assert.equal(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v2/users/${ids.acme}`,
          headers: adminHeaders,
          payload: { name: 'renamed by admin' },
        })
      ).statusCode,
      200,
    );
    assert.equal(
      (await t.app.inject({ url: `/api/v2/users/${ids.acme}`, headers: a.headers })).json().name,
      'renamed by admin',
      'an admin change keeps the owner',
    );
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `/api/v2/users/${ids.loose}`, headers: loose.headers })).statusCode,
      204,
      'single-tenant keys keep working as before',
    );
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `/api/v2/users/${ids.acme}`, headers: a.headers })).statusCode,
      204,
    );
    await t.close();
  });

  it('scopes a JWT by its client_id claim', async () => {
    const secret = 'a-test-secret-that-is-32-chars-long!!';
    const app = await createTestApp({ env: { VERSIONARY_JWT_SECRET: secret } });
    const seconds = Math.floor(testEpoch / 1000);
    const token = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(seconds)
        .setExpirationTime(seconds + 600)
        .sign(new TextEncoder().encode(secret));
    const acme = {
      authorization: `Bearer ${await token({ sub: 'svc-1', client_id: 'cl_00000000000000aa', scope: 'read write' })}`,
    };
    const other = {
      authorization: `Bearer ${await token({ sub: 'svc-2', client_id: 'cl_00000000000000bb', scope: 'read write' })}`,
    };
    const created = await app.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: acme,
      payload: { name: 'jwt-user' },
    });
    assert.equal(created.statusCode, 201);
    assert.equal((await app.storage.users.get(created.json().id))?.clientId, 'cl_00000000000000aa');
    assertProblem(await app.app.inject({ url: `/api/v2/users/${created.json().id}`, headers: other }), { status: 404 });
    assert.equal((await app.app.inject({ url: `/api/v2/users/${created.json().id}`, headers: acme })).statusCode, 200);
    await app.close();
  });
});
