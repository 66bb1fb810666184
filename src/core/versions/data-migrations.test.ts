import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VersionaryError } from '../errors/index.ts';
import { readVersionChanges } from './change-file.ts';
import { defineVersions } from './define-versions.ts';
import { toOpenApiDocument } from './openapi.ts';
import { ref } from './schema-walk.ts';
import type { HeadDefinition } from './types.ts';

const head: HeadDefinition = {
  schemas: {
    Status: { type: 'string', enum: ['active', 'inactive', 'pending'] },
    User: {
      type: 'object',
      required: ['id', 'fullName'],
      properties: {
        id: { type: 'integer' },
        fullName: { type: 'string' },
        priority: { type: 'integer' },
        status: ref('Status'),
        profile: { type: 'object', properties: { city: { type: 'string' } } },
      },
    },
    UserList: { type: 'array', items: ref('User') },
  },
  operations: [
    {
      id: 'users.list',
      method: 'GET' as const,
      path: '/users',
      summary: 'List',
      responses: { 200: { description: 'ok', schema: 'UserList' } },
    },
    {
      id: 'users.create',
      method: 'POST' as const,
      path: '/users',
      summary: 'Create',
      body: 'User',
      responses: { 201: { description: 'ok', schema: 'User' } },
    },
  ],
};

const instructions = [
  { op: 'field-renamed', schema: 'User', field: 'fullName', previousName: 'name' },
  { op: 'field-removed', schema: 'User', field: 'nickname', definition: { type: 'string' }, default: '' },
  { op: 'field-removed', schema: 'User', field: 'city', definition: { type: 'string' }, from: '/profile/city' },
  { op: 'field-retyped', schema: 'User', field: 'priority', previous: { type: 'string' } },
  { op: 'enum-values-added', schema: 'Status', values: ['pending'], mapDownTo: { pending: 'inactive' } },
  { op: 'schema-renamed', schema: 'User', previousName: 'Person' },
];

function bundleOf(steps: unknown[]) {
  const { changes, problems } = readVersionChanges([{ version: 'v2', description: 'Renames.', instructions: steps }]);
  assert.deepEqual(problems, []);
  return defineVersions({ head, versions: [{ name: 'v1' }, { name: 'v2', changes: changes.map((c) => c.change) }] });
}

function problemsOf(steps: unknown[]): string[] {
  try {
    bundleOf(steps);
  } catch (error) {
    return ((error as VersionaryError).errors ?? []).map((e) => e.detail);
  }
  return [];
}

describe('the vocabulary as data', () => {
  const bundle = bundleOf(instructions);
  const [v1, v2] = [bundle.get('v1')!, bundle.get('v2')!];

  it('derives the older schemas: the previous name in its place, removed fields back, the enum component without the value', () => {
    const user = v1.schemas.User as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(Object.keys(user.properties), ['id', 'name', 'priority', 'status', 'profile', 'nickname', 'city']);
    assert.deepEqual(user.required, ['id', 'name']);
    assert.deepEqual(user.properties.priority, { type: 'string' });
    assert.deepEqual(v1.schemas.Status!.enum, ['active', 'inactive']);
  });

  it('translates a newer answer down: renamed, defaulted, read from the pointer, converted, the enum mapped wherever it is referenced', () => {
    const body = [
      { id: 1, fullName: 'Ada', priority: 2, status: 'pending', profile: { city: 'London' } },
      { id: 2, fullName: 'Alan', priority: 1, status: 'active' },
    ];
    const down = bundle.migrations.responseDown({ schema: 'UserList', body, from: v2, to: v1 });
    assert.deepEqual(down, [
      {
        id: 1,
        name: 'Ada',
        priority: '2',
        status: 'inactive',
        profile: { city: 'London' },
        nickname: '',
        city: 'London',
      },
      { id: 2, name: 'Alan', priority: '1', status: 'active', nickname: '' },
    ]);
  });

  it('translates an older request up: the previous name under the newer one, the type converted, removed fields dropped', () => {
    const body = { id: 3, name: 'Grace', priority: '7', nickname: 'G', city: 'Paris', status: 'active' };
    const up = bundle.migrations.requestUp({ schema: 'User', body, from: v1, to: v2, operationId: 'users.create' });
    assert.deepEqual(up, { id: 3, fullName: 'Grace', priority: 7, status: 'active' });
  });

  it("names the schema by its previous name in the older version's document, references included", () => {
    const doc = toOpenApiDocument({ version: v1, title: 'Users', basePath: '/api/v1' }) as {
      components: { schemas: Record<string, unknown> };
      paths: Record<string, { post: { requestBody: unknown } }>;
    };
    assert.ok(doc.components.schemas.Person);
    assert.equal(doc.components.schemas.User, undefined);
    assert.match(JSON.stringify(doc.paths['/api/v1/users']!.post.requestBody), /#\/components\/schemas\/Person/);
    assert.doesNotMatch(JSON.stringify(doc), /#\/components\/schemas\/User"/);
  });

  it('maps a retyped value by its map, and inverts the map for requests', () => {
    const mapped = bundleOf([
      {
        op: 'field-retyped',
        schema: 'User',
        field: 'priority',
        previous: { enum: ['low', 'high'] },
        map: { 1: 'low', 2: 'high' },
      },
    ]);
    const [m1, m2] = [mapped.get('v1')!, mapped.get('v2')!];
    const down = mapped.migrations.responseDown({
      schema: 'User',
      body: { id: 1, fullName: 'A', priority: 2 },
      from: m2,
      to: m1,
    });
    assert.deepEqual(down, { id: 1, fullName: 'A', priority: 'high' });
    const up = mapped.migrations.requestUp({
      schema: 'User',
      body: { id: 1, fullName: 'A', priority: 'low' },
      from: m1,
      to: m2,
    });
    assert.deepEqual(up, { id: 1, fullName: 'A', priority: 1 });
  });

  it('stops the start on a rename of a missing field, a wrong pointer, and a retyping data cannot convert, all at once', () => {
    const problems = problemsOf([
      { op: 'field-renamed', schema: 'User', field: 'surname', previousName: 'lastName' },
      { op: 'field-removed', schema: 'User', field: 'town', definition: { type: 'string' }, from: '/profile/town' },
      { op: 'field-retyped', schema: 'User', field: 'priority', previous: { type: 'boolean' } },
      { op: 'schema-renamed', schema: 'Account', previousName: 'Person' },
    ]);
    assert.ok(
      problems.includes('v2: field-renamed names User.surname, which the version does not have'),
      problems.join('\n'),
    );
    assert.ok(problems.includes('v2: field-removed from /profile/town names /profile/town, which User does not have'));
    assert.ok(
      problems.some((p) =>
        /field-retyped on "User" needs a response migration for it \(User\.priority's types convert as data only/.test(
          p,
        ),
      ),
    );
    assert.ok(problems.includes('v2: schema-renamed names schema "Account", which the version does not define'));
  });

  it('refuses a previous name the schema or the version already uses', () => {
    assert.equal(
      problemsOf([{ op: 'field-renamed', schema: 'User', field: 'fullName', previousName: 'id' }])[0],
      'v2: field-renamed names User.fullName\'s previous name "id", which User also has',
    );
    assert.deepEqual(problemsOf([{ op: 'schema-renamed', schema: 'User', previousName: 'Status' }]), [
      'v2: schema-renamed names User\'s previous name "Status", which the version already uses',
    ]);
  });
});
