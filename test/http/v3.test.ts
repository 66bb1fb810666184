import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFixedClock } from '../../src/core/clock/index.ts';
import { isVersionaryError } from '../../src/core/errors/index.ts';
import {
  defineVersionChange,
  defineVersions,
  enumValuesAdded,
  fieldAdded,
  isPlainObject,
  ref,
  schemaReplaced,
  type VersionBundle,
  type VersionChange,
} from '../../src/core/versions/index.ts';
import { headOperations } from '../../src/reference/api/operations.ts';
import { headSchemas } from '../../src/reference/api/schemas.ts';
import { buildApp } from '../../src/compose/build-app.ts';
import { referenceProduct } from '../../src/reference/product.ts';
import { loadConfig } from '../../src/loop/settings.ts';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { varyOf } from '../support/assertions.ts';
import { migrationProperties } from '../support/migration-properties.ts';
import { createTestApp, createUser, json, seedUsers, type TestApp } from '../support/test-app.ts';

// The test's own version history: v2 brings the contact fields and `pending`, and a new v3 turns
// lists into paged objects. Nothing else changes: same head, same handlers.
const userSchemas = ['User', 'UserDetail', 'UserInput', 'UserPatch'];
const contactFields = defineVersionChange({
  description: 'Users gain optional `email`, `nickname` and `displayName`; the single user carries `_version`.',
  instructions: [
    ...userSchemas.flatMap((s) => [fieldAdded(s, 'email'), fieldAdded(s, 'nickname'), fieldAdded(s, 'displayName')]),
    fieldAdded('UserDetail', '_version'),
  ],
});
const pendingStatus = defineVersionChange({
  description: 'Status gains `pending`, shown as `inactive` to older clients.',
  instructions: userSchemas.map((schema) =>
    enumValuesAdded({ schema, field: 'status', values: ['pending'], mapDownTo: { pending: 'inactive' } }),
  ),
});
const unwrap = (body: unknown) => (isPlainObject(body) ? body.data : body);
const pagedLists = defineVersionChange({
  description: 'Lists become `{ data, meta }` objects.',
  instructions: [
    schemaReplaced({ schema: 'UserList', previous: { type: 'array', items: ref('User') } }),
    schemaReplaced({ schema: 'PostList', previous: { type: 'array', items: ref('Post') } }),
  ],
  responses: { UserList: unwrap, PostList: unwrap },
});

const head = { schemas: headSchemas, operations: headOperations };

// The lifecycle needs the new version's release date; the built-in table knows only v1 and v2.
const v3Release = {
  env: { VERSIONARY_CONFIG: '/config/versionary.json' },
  files: { '/config/versionary.json': JSON.stringify({ versions: { v3: { releasedAt: '2026-06-01T00:00:00Z' } } }) },
};

describe('a throwaway v3: one change module, no handler changes', () => {
  let t: TestApp;
  let bundle: VersionBundle;
  let userId: number;
  before(async () => {
    bundle = defineVersions({
      head,
      versions: [
        { name: 'v1' },
        { name: 'v2', changes: [contactFields, pendingStatus] },
        { name: 'v3', changes: [pagedLists] },
      ],
    });
    t = await createTestApp({ bundle, ...v3Release });
    userId = (
      await createUser(t.app, { version: 'v3', body: { name: 'Three', email: 't@example.com', status: 'pending' } })
    ).id as number;
  });
  after(() => t.close());

  it('publishes three versions', () => {
    assert.deepEqual(
      bundle.versions.map((v) => v.name),
      ['v1', 'v2', 'v3'],
    );
    assert.equal(bundle.latest.name, 'v3');
  });

  it('shows the user in each version', async () => {
    assert.deepEqual(json(await t.app.inject({ url: `/api/v1/users/${userId}` })), {
      id: userId,
      name: 'Three',
      status: 'inactive',
    });
    const full = { id: userId, name: 'Three', email: 't@example.com', status: 'pending', _version: 1 };
    assert.deepEqual(json(await t.app.inject({ url: `/api/v2/users/${userId}` })), full);
    assert.deepEqual(json(await t.app.inject({ url: `/api/v3/users/${userId}` })), full);
  });

  it('lists as arrays in v1 and v2 and as paged objects in v3', async () => {
    const one = json(await t.app.inject({ url: '/api/v1/users' }));
    const two = json(await t.app.inject({ url: '/api/v2/users' }));
    const three = json(await t.app.inject({ url: '/api/v3/users' }));
    assert.deepEqual(one, [{ id: userId, name: 'Three', status: 'inactive' }]);
    assert.deepEqual(two, [{ id: userId, name: 'Three', email: 't@example.com', status: 'pending' }]);
    assert.deepEqual(three, {
      data: [{ id: userId, name: 'Three', email: 't@example.com', status: 'pending' }],
      meta: { limit: 20, nextCursor: null, next: null },
    });
  });

  it('takes v2-only input in v2 and refuses it in v1', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      payload: { name: 'Two', nickname: 'tw', status: 'pending' },
    });
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers.location, `/api/v2/users/${json(res).id}`);
    assert.equal(
      (await t.app.inject({ method: 'POST', url: '/api/v1/users', payload: { name: 'One', nickname: 'x' } }))
        .statusCode,
      400,
    );
  });

  it('negotiates v3 through Accept, with Vary', async () => {
    for (const accept of ['application/vnd.versionary.v3+json', 'application/json; version=3']) {
      const res = await t.app.inject({ url: '/api/users', headers: { accept } });
      assert.equal(res.statusCode, 200);
      assert.ok(varyOf(res).includes('accept'));
      const body = json<{ data: unknown[]; meta: unknown }>(res);
      assert.ok(Array.isArray(body.data) && body.meta);
    }
    const two = await t.app.inject({ url: '/api/users', headers: { accept: 'application/vnd.versionary.v2+json' } });
    assert.ok(Array.isArray(json(two)));
  });

  it('serves an OpenAPI document per version', async () => {
    type Doc = {
      info: { version: string };
      components: { schemas: Record<string, { type?: string; properties?: Record<string, unknown> }> };
    };
    const three = json<Doc>(await t.app.inject({ url: '/api/v3/openapi.json' }));
    const two = json<Doc>(await t.app.inject({ url: '/api/v2/openapi.json' }));
    const one = await t.app.inject({ url: '/api/v1/openapi.json' });
    assert.equal(three.info.version, 'v3');
    assert.equal(three.components.schemas.UserList?.type, 'object');
    assert.equal(two.info.version, 'v2');
    assert.equal(two.components.schemas.UserList?.type, 'array');
    assert.ok(two.components.schemas.User?.properties?.email);
    for (const word of ['email', 'nickname', '_version', 'pending']) assert.ok(!one.body.includes(word));
  });

  it('pages v2 arrays with the Link header and v3 objects with meta', async () => {
    const paged = await createTestApp({ bundle, ...v3Release });
    try {
      await seedUsers(paged.storage, 25);
      const two = await paged.app.inject({ url: '/api/v2/users' });
      assert.equal(json<unknown[]>(two).length, 20);
      assert.match(String(two.headers.link), /^<\/api\/v2\/users\?limit=20&cursor=[^>]+>; rel="next"$/);
      const three = json<{ meta: { next: string } }>(await paged.app.inject({ url: '/api/v3/users' }));
      assert.ok(three.meta.next.startsWith('/api/v3/users?'));
    } finally {
      await paged.close();
    }
  });

  it('starts with a v3 bundle and no config file', async () => {
    const bare = await createTestApp({ bundle });
    try {
      assert.equal((await bare.app.inject({ url: '/api/v3/users' })).statusCode, 200);
    } finally {
      await bare.close();
    }
  });

  it('answers 404 for v4, naming the three versions', async () => {
    const res = await t.app.inject({ url: '/api/v4/users' });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(json(res).supportedVersions, ['v1', 'v2', 'v3']);
  });
});

describe('a bad version definition fails at definition time, listing every problem', () => {
  const missingField = defineVersionChange({
    description: 'Adds a phone number.',
    instructions: [fieldAdded('User', 'phone')],
  });
  const unmigrated = defineVersionChange({
    description: 'Lists become objects, without saying how to migrate them.',
    instructions: [schemaReplaced({ schema: 'UserList', previous: { type: 'array', items: ref('User') } })],
  });
  const badEnum = defineVersionChange({
    description: 'Maps a status to a value the older enum lacks.',
    instructions: [
      enumValuesAdded({ schema: 'User', field: 'status', values: ['pending'], mapDownTo: { pending: 'archived' } }),
    ],
  });

  const expectInvalid = (run: () => unknown, fragments: RegExp[]) => {
    assert.throws(run, (error) => {
      assert.ok(isVersionaryError(error));
      assert.equal(error.code, 'INVALID_DEFINITION');
      const listed = (error.errors ?? []).map((e) => e.detail);
      for (const fragment of fragments) {
        assert.ok(
          listed.some((d) => fragment.test(d)),
          `${fragment} among ${JSON.stringify(listed)}`,
        );
        assert.match(error.detail, fragment);
      }
      assert.ok(listed.length >= fragments.length);
      return true;
    });
  };

  it('reports a change naming a missing field and a replaced schema without a response migration together', () => {
    expectInvalid(
      () =>
        defineVersions({
          head,
          versions: [
            { name: 'v1' },
            { name: 'v2', changes: [contactFields, pendingStatus, pagedLists] },
            { name: 'v3', changes: [missingField, unmigrated] },
          ],
        }),
      [/v3: field-added names User\.phone/, /v3: schema-replaced on "UserList" needs a response migration/],
    );
  });

  it('also lists bad enum mappings, misordered names and changes without descriptions', () => {
    const undescribed: VersionChange = { description: ' ', instructions: [fieldAdded('User', 'nickname')] };
    expectInvalid(
      () =>
        defineVersions({
          head,
          versions: [{ name: 'v2', changes: [undescribed] }, { name: 'v1', changes: [badEnum] }, { name: 'version-3' }],
        }),
      [
        /"archived"/,
        /v1 must come after v2/,
        /without a description/,
        /v2 is the oldest version and cannot declare changes/,
        /"version-3" must look like v1, v2/,
      ],
    );
  });

  it('refuses a bundle whose head has an operation without a handler when the app is built', async () => {
    const extra = {
      id: 'users.search',
      method: 'GET' as const,
      path: '/users/search',
      summary: 'Search',
      responses: { 200: { description: 'ok', schema: 'UserList' } },
    };
    const bundle = defineVersions({
      head: { schemas: headSchemas, operations: [...headOperations, extra] },
      versions: [{ name: 'v1' }, { name: 'v2', changes: [contactFields, pendingStatus, pagedLists] }],
    });
    const storage = await openSqliteStorage({ path: ':memory:' });
    try {
      const config = loadConfig({ env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }, readFile: () => '' });
      await assert.rejects(
        buildApp({ product: referenceProduct({ bundle }), config, storage, clock: createFixedClock(0) }),
        (error) => {
          assert.ok(isVersionaryError(error));
          assert.equal(error.code, 'INVALID_DEFINITION');
          assert.match(error.detail, /users\.search/);
          return true;
        },
      );
    } finally {
      await storage.close();
    }
  });
});

describe('the throwaway v3 keeps the migration properties', () => {
  const bundle = defineVersions({
    head,
    versions: [
      { name: 'v1' },
      { name: 'v2', changes: [contactFields, pendingStatus] },
      { name: 'v3', changes: [pagedLists] },
    ],
  });
  for (const property of migrationProperties(bundle)) it(property.name, property.run);
});
