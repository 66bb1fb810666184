import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ElementDeprecation } from '../lifecycle/index.ts';
import { defineVersions, ref } from '../versions/index.ts';
import { createMigrationGuide } from './create-migration-guide.ts';
import { elementGuideEntries } from './element-entries.ts';
import { toHtml } from './render.ts';
import { toJson } from './render.ts';
import { toMarkdown } from './render.ts';

const user = { type: 'object', properties: { nickname: { type: 'string' }, displayName: { type: 'string' } } };
const bundle = defineVersions({
  head: {
    schemas: {
      User: user,
      UserInput: user,
      UserList: { type: 'object', properties: { data: { type: 'array', items: ref('User') } } },
      Post: { type: 'object', properties: { title: { type: 'string' } } },
    },
    operations: [
      {
        id: 'users.list',
        method: 'GET',
        path: '/users',
        summary: 'List',
        query: { type: 'object', properties: { order: { type: 'string' }, sort: { type: 'string' } } },
        responses: { 200: { description: 'ok', schema: 'UserList' } },
      },
      {
        id: 'users.create',
        method: 'POST',
        path: '/users',
        summary: 'Create',
        body: 'UserInput',
        responses: { 201: { description: 'ok', schema: 'User' } },
      },
      {
        id: 'posts.list',
        method: 'GET',
        path: '/posts',
        summary: 'Posts',
        responses: { 200: { description: 'ok', schema: 'Post' } },
      },
    ],
  },
  versions: [{ name: 'v2' }],
});
const dates = { version: 'v2', deprecatedAt: Date.UTC(2026, 8, 1), sunsetAt: Date.UTC(2027, 8, 1) };
const field = (schema: string): ElementDeprecation => ({
  ...dates,
  kind: 'field',
  element: `${schema}.nickname`,
  schema,
  field: 'nickname',
  replacement: 'displayName',
});
const order: ElementDeprecation = {
  ...dates,
  kind: 'parameter',
  element: 'GET /users?order',
  method: 'GET',
  path: '/users',
  parameter: 'order',
};
const entries = (deprecations: ElementDeprecation[]) =>
  elementGuideEntries({ deprecations, version: bundle.get('v2')!, basePath: '/api' });

describe('elementGuideEntries', () => {
  it('a field reaches every operation whose body or responses use its schema, directly or through a reference', () => {
    assert.deepEqual(entries([field('User')]), [
      {
        endpoint: 'GET /api/users, POST /api/users',
        operations: ['GET /api/users', 'POST /api/users'],
        oldBehaviour: 'sends `nickname`',
        newBehaviour: 'send `displayName`; `nickname` is refused after 2027-09-01T00:00:00Z',
        rule: 'field-deprecated',
      },
    ]);
    assert.deepEqual(entries([field('UserInput')])[0]!.operations, ['POST /api/users']);
  });

  it('a parameter reaches its own operation; without a replacement the client stops sending it', () => {
    assert.deepEqual(entries([order]), [
      {
        endpoint: 'GET /api/users',
        operations: ['GET /api/users'],
        oldBehaviour: 'sends `order`',
        newBehaviour: 'stop sending it; `order` is refused after 2027-09-01T00:00:00Z',
        rule: 'parameter-deprecated',
      },
    ]);
  });

  it("lists only the version's own elements", () => {
    assert.deepEqual(entries([{ ...order, version: 'v1' }]), []);
  });
});

describe('a migration guide with deprecated elements', () => {
  const options = { from: 'v2', to: 'v3', changes: [], deprecatedAt: '2026-09-01' };
  it('lists them in their own section of every rendering', () => {
    const guide = createMigrationGuide({
      ...options,
      elements: { deprecations: [field('UserInput'), order], version: bundle.get('v2')!, basePath: '/api' },
    });
    assert.equal(guide.deprecated?.length, 2);
    const md = toMarkdown(guide);
    assert.match(md, /## Deprecated fields and parameters\n\n\| Endpoint \| Old behaviour \| New behaviour \|/);
    assert.match(
      md,
      /\| POST \/api\/users \| sends `nickname` \| send `displayName`; `nickname` is refused after 2027-09-01T00:00:00Z \|/,
    );
    assert.match(
      toHtml(guide),
      /<h2>Deprecated fields and parameters<\/h2>[^]*<td><code>GET \/api\/users<\/code><\/td><td>sends <code>order<\/code><\/td>/,
    );
    assert.equal(JSON.parse(toJson(guide)).deprecated[1].rule, 'parameter-deprecated');
  });

  it('without any, the guide is the same as before: no section, no member', () => {
    const plain = createMigrationGuide(options);
    const none = createMigrationGuide({
      ...options,
      elements: { deprecations: [], version: bundle.get('v2')!, basePath: '/api' },
    });
    assert.deepEqual(none, plain);
    assert.equal('deprecated' in none, false);
    assert.doesNotMatch(toMarkdown(none), /Deprecated fields/);
  });
});
