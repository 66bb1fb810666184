import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { createApiKey } from '../../src/loop/access/auth/api-keys.ts';
import { assertProblem } from '../support/assertions.ts';
import { createTestApp, testEpoch, type TestApp } from '../support/test-app.ts';

const day = 86_400_000;
const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const paths = [
  '/api/v1',
  '/api/v1/',
  '/api/v1/anything',
  '/api/v1/users',
  '/api/v1/users/1',
  '/api/v1/users/1/posts',
  '/api/v1/users/1/posts/1',
  '/api/v1/users?limit=1',
  '/api/v1/openapi.json/x',
];
const credentials: Array<[string, Record<string, string>]> = [
  ['without credentials', { authorization: '' }],
  ['with a bad key', { authorization: 'Bearer vk_0000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
  ['with a valid key', {}],
];

async function assertGone(t: TestApp, request: InjectOptions, status: 410 | 404): Promise<void> {
  const res = await t.app.inject(request);
  const label = `${request.method} ${request.url} ${JSON.stringify(request.headers)}`;
  assert.equal(res.statusCode, status, `${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  if (request.method === 'HEAD') return;
  const problem = assertProblem(res, { status, code: status === 410 ? 'VERSION_REMOVED' : 'NOT_FOUND' });
  assert.equal(problem.replacement, 'v2', label);
  assert.equal(res.headers['www-authenticate'], undefined, `${label}: not an authentication challenge`);
}

for (const [how, status, setup] of [
  [
    'past its sunset',
    410,
    async () => {
      const t = await createTestApp();
      t.clock.set(testEpoch + 181 * day);
      return t;
    },
  ],
  [
    'flagged removed with removedStatus 404',
    404,
    () =>
      createTestApp({
        env: { VERSIONARY_CONFIG: '/c.json' },
        files: { '/c.json': JSON.stringify({ removedStatus: 404, versions: { v1: { removed: true } } }) },
      }),
  ],
] as const) {
  describe(`a version ${how}`, () => {
    it(`answers ${status} on every path and method under it, before authentication`, async () => {
      const t = await setup();
      for (const [, headers] of credentials) {
        for (const method of methods) {
          for (const url of paths)
            await assertGone(
              t,
              {
                method,
                url,
                headers,
                ...(['POST', 'PUT', 'PATCH'].includes(method) ? { payload: { name: 'x' } } : {}),
              },
              status,
            );
        }
      }
      assert.equal(await t.storage.users.count(), 0, 'nothing was written');
      await t.close();
    });

    it(`answers ${status} through Accept negotiation too, with or without credentials`, async () => {
      const t = await setup();
      for (const [, headers] of credentials) {
        for (const accept of ['application/vnd.versionary.v1+json', 'application/json; version=1']) {
          for (const url of ['/api/users', '/api/users/1', '/api/anything', '/api/users/1/posts']) {
            for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS'] as const)
              await assertGone(t, { method, url, headers: { ...headers, accept } }, status);
          }
        }
      }
      await t.close();
    });

    it('keeps v2 working, and v2 still needs credentials', async () => {
      const t = await setup();
      assert.equal((await t.app.inject({ url: '/api/v2/users' })).statusCode, 200);
      assertProblem(await t.app.inject({ url: '/api/v2/users', headers: { authorization: '' } }), { status: 401 });
      await t.close();
    });

    it('lists it as removed at / and /api/versions, and keeps its OpenAPI document readable, marked removed', async () => {
      const t = await setup();
      const none = { authorization: '' };
      const root = (await t.app.inject({ url: '/', headers: none })).json() as {
        versions: Array<{ name: string; state: string; removed: boolean }>;
      };
      assert.deepEqual(
        root.versions.map((v) => [v.name, v.state, v.removed]),
        [
          ['v1', 'removed', true],
          ['v2', 'active', false],
        ],
      );
      const doc = (await t.app.inject({ url: '/api/versions', headers: none })).json() as {
        versions: Array<{ name: string; state: string; status: string }>;
      };
      assert.deepEqual(
        doc.versions.find((v) => v.name === 'v1'),
        { ...doc.versions.find((v) => v.name === 'v1'), state: 'removed', status: 'removed' },
      );
      const openapi = await t.app.inject({ url: '/api/v1/openapi.json', headers: none });
      assert.equal(openapi.statusCode, 200);
      const info = openapi.json().info as Record<string, unknown>;
      assert.equal(info['x-removed'], true);
      assert.match(String(info['x-sunset']), /^\d{4}-\d{2}-\d{2}T/);
      assert.match(
        String(info.description),
        new RegExp(`^REMOVED: v1 was removed .* answers ${status} .*use v2 instead`),
      );
      const v2 = (await t.app.inject({ url: '/api/v2/openapi.json', headers: none })).json().info as Record<
        string,
        unknown
      >;
      assert.equal(v2['x-removed'], undefined);
      assert.equal(
        (await t.app.inject({ url: '/api/versions/v1/migration-guide', headers: { ...none, accept: 'text/markdown' } }))
          .statusCode,
        200,
        'the guide stays readable',
      );
      await t.close();
    });
  });
}

describe('the 401-versus-410 order', () => {
  it('puts the version first: gone is gone, whoever asks; an active version still asks for credentials', async () => {
    const t = await createTestApp({
      env: { VERSIONARY_CONFIG: '/c.json' },
      files: {
        '/c.json': JSON.stringify({
          versions: {
            v0: { releasedAt: '2023-01-01T00:00:00Z', removed: true, replacement: 'v2' },
            v1: { removed: true },
            v2: {},
          },
        }),
      },
    });
    const reader = (await createApiKey({ store: t.storage.apiKeys, name: 'r', roles: ['read'], now: testEpoch })).key;
    const bad = 'Bearer vk_0000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    for (const url of ['/api/v1/users', '/api/v0/users']) {
      assertProblem(await t.app.inject({ url, headers: { authorization: '' } }), {
        status: 410,
        code: 'VERSION_REMOVED',
      });
      assertProblem(await t.app.inject({ url, headers: { authorization: bad } }), {
        status: 410,
        code: 'VERSION_REMOVED',
      });
      // 410 before 403 as well: a reader's POST is not a permission question on a removed version.
      assertProblem(
        await t.app.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${reader}` },
          payload: { name: 'x' },
        }),
        { status: 410, code: 'VERSION_REMOVED' },
      );
    }
    assertProblem(await t.app.inject({ url: '/api/v2/users', headers: { authorization: '' } }), {
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    assertProblem(await t.app.inject({ url: '/api/v2/users', headers: { authorization: bad } }), {
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    assertProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { authorization: `Bearer ${reader}` },
        payload: { name: 'x' },
      }),
      { status: 403, code: 'FORBIDDEN' },
    );
    await t.close();
  });
});
