import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openapi } from '../../../test/support/openapi-builder.ts';
import { lintOpenApi } from './lint-openapi.ts';
import { checkSegment } from './segments.ts';
import type { LintFinding } from './lint-context.ts';

const problem = { description: 'error', content: { 'application/problem+json': { schema: { type: 'object' } } } };
const get = (extra: Record<string, unknown> = {}) => ({
  get: { responses: { '200': { description: 'ok' }, '404': problem }, ...extra },
});
const rules = (findings: LintFinding[]) =>
  findings.map((f) => `${f.rule} ${f.method ?? ''} ${f.path}`.replace('  ', ' '));

describe('collection-not-plural', () => {
  it('accepts plural, irregular and uncountable nouns, params, versions and documented non-collections', () => {
    for (const s of [
      'users',
      'people',
      'children',
      'data',
      'indices',
      'news',
      'sheep',
      'media',
      'metadata',
      'line_items',
      'payment-methods',
      '{id}',
      'v1',
      'v2',
      'api',
      'openapi.json',
      'me',
      'health',
    ]) {
      assert.equal(checkSegment(s), undefined, s);
    }
  });
  it('flags singular, verb and mixed segments with a suggestion', () => {
    assert.deepEqual(checkSegment('user'), { kind: 'singular', suggestion: 'users' });
    assert.deepEqual(checkSegment('person'), { kind: 'singular', suggestion: 'people' });
    assert.deepEqual(checkSegment('getUsers'), { kind: 'mixed', suggestion: 'users' });
    assert.deepEqual(checkSegment('create_order'), { kind: 'mixed', suggestion: 'orders' });
    assert.equal(checkSegment('activate')?.kind, 'verb');
  });
  it('reports each offending segment of each path, with a fix', () => {
    const doc = openapi({ '/api/v1/user/{id}/getPosts': get(), '/api/v1/people/{id}/children': get() });
    const found = lintOpenApi(doc).filter((f) => f.rule === 'collection-not-plural');
    assert.deepEqual(
      found.map((f) => f.message),
      [
        'Segment "user" is singular; collection names are plural nouns.',
        'Segment "getPosts" mixes a verb with a noun; collection names are plural nouns.',
      ],
    );
    assert.match(found[0]?.suggestion ?? '', /\/api\/v1\/users\/\{id\}/);
  });
  it('an allow list spares namespaces', () => {
    assert.deepEqual(lintOpenApi(openapi({ '/api/v1/checkout/sessions': get() }), { allowSegments: ['checkout'] }), []);
  });
});

describe('namespaces, mass nouns, singleton sub-resources and stated deviations', () => {
  it('accepts the admin namespace and usage, a mass noun', () => {
    assert.equal(checkSegment('admin'), undefined);
    assert.equal(checkSegment('usage'), undefined);
    assert.deepEqual(rules(lintOpenApi(openapi({ '/admin/v1/usage/clients': get() }))), []);
  });
  it('accepts a singular noun after a parameter that ends the path and takes no POST: a singleton', () => {
    const put = { put: { responses: { '200': { description: 'ok' }, '404': problem } } };
    const post = { post: { responses: { '201': { description: 'ok' }, '404': problem } } };
    const doc = openapi({
      '/api/v1/users/{id}/profile': { ...get(), ...put },
      '/api/v1/users/{id}/post': { ...get(), ...post },
      '/api/v1/user/{id}': get(),
    });
    assert.deepEqual(rules(lintOpenApi(doc)), [
      'collection-not-plural /api/v1/users/{id}/post',
      'collection-not-plural /api/v1/user/{id}',
    ]);
  });
  it('skips what an operation states with x-lint-skip, and only that', () => {
    const doc = openapi({
      '/api/v1/notices/run': {
        post: { responses: { '200': { description: 'ok' } }, 'x-lint-skip': ['collection-not-plural'] },
      },
      '/api/v1/calls': get({
        parameters: [{ name: 'clientId', in: 'query' }],
        'x-lint-skip': ['identifier-in-query'],
      }),
      '/api/v1/posts': get({ parameters: [{ name: 'userId', in: 'query' }], 'x-lint-skip': ['unversioned-path'] }),
    });
    assert.deepEqual(rules(lintOpenApi(doc)), ['identifier-in-query GET /api/v1/posts']);
  });
});

describe('identifier-in-query', () => {
  it('flags ?id= and ?userId= and accepts ordinary filters', () => {
    const doc = openapi({
      '/api/v1/users': get({ parameters: [{ name: 'id', in: 'query', schema: { type: 'integer' } }] }),
      '/api/v1/posts': get({
        parameters: [
          { name: 'userId', in: 'query' },
          { name: 'user_id', in: 'query' },
          { name: 'limit', in: 'query' },
          { name: 'fields', in: 'query' },
          { name: 'paid', in: 'query' },
        ],
      }),
    });
    const found = lintOpenApi(doc).filter((f) => f.rule === 'identifier-in-query');
    assert.deepEqual(
      found.map((f) => f.message),
      [
        'Query parameter "id" carries a resource identifier.',
        'Query parameter "userId" carries a resource identifier.',
        'Query parameter "user_id" carries a resource identifier.',
      ],
    );
    assert.equal(found[0]?.suggestion, 'Make it a path segment: /api/v1/users/{id}.');
  });
});

describe('unversioned-path', () => {
  it('flags paths with no version when no server carries one', () => {
    assert.deepEqual(rules(lintOpenApi(openapi({ '/users': get(), '/api/v1/users': get() }))), [
      'unversioned-path /users',
    ]);
  });
  it('a server URL carrying the version versions every path', () => {
    const doc = { ...openapi({ '/users': get() }), servers: [{ url: 'https://api.example.com/api/v2' }] };
    assert.deepEqual(lintOpenApi(doc), []);
  });
  it('a versioned media type versions a path', () => {
    const doc = openapi({
      '/users': {
        get: {
          responses: { '200': { description: 'ok', content: { 'application/vnd.acme.v2+json': {} } }, '404': problem },
        },
      },
    });
    assert.deepEqual(lintOpenApi(doc), []);
  });
});

describe('error-not-problem-details', () => {
  it('accepts application/problem+json and a schema with type, title, status, detail (allOf and $ref included)', () => {
    const shape = { type: 'object', properties: { type: {}, title: {}, status: {}, detail: {} } };
    const doc = openapi(
      {
        '/api/v1/users': {
          get: {
            responses: {
              '200': { description: 'ok' },
              '400': problem,
              '500': {
                description: 'x',
                content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Problem' }] } } },
              },
            },
          },
        },
      },
      { Problem: shape },
    );
    assert.deepEqual(lintOpenApi(doc), []);
  });
  it('flags error responses without the shape or without a body', () => {
    const doc = openapi({
      '/api/v1/users': {
        get: {
          responses: {
            '200': { description: 'ok' },
            '401': { description: 'no body' },
            '500': {
              description: 'x',
              content: { 'application/json': { schema: { type: 'object', properties: { message: {} } } } },
            },
          },
        },
      },
    });
    assert.deepEqual(
      lintOpenApi(doc).map((f) => `${f.rule} ${f.pointer}`),
      [
        'error-not-problem-details /paths/~1api~1v1~1users/get/responses/401',
        'error-not-problem-details /paths/~1api~1v1~1users/get/responses/500',
      ],
    );
  });
});

describe('deprecated-without-sunset', () => {
  it('flags a deprecated operation with neither x-sunset nor a Sunset header', () => {
    assert.deepEqual(rules(lintOpenApi(openapi({ '/api/v1/users': get({ deprecated: true }) }))), [
      'deprecated-without-sunset GET /api/v1/users',
    ]);
  });
  it('accepts x-sunset or a documented Sunset header', () => {
    assert.deepEqual(
      lintOpenApi(openapi({ '/api/v1/users': get({ deprecated: true, 'x-sunset': '2027-01-01' }) })),
      [],
    );
    const withHeader = {
      get: {
        deprecated: true,
        responses: {
          '200': { description: 'ok', headers: { Sunset: { schema: { type: 'string' } } } },
          '404': problem,
        },
      },
    };
    assert.deepEqual(lintOpenApi(openapi({ '/api/v1/users': withHeader })), []);
  });
});

it('a conforming document has no findings', () => {
  const doc = openapi({ '/api/v1/users': get(), '/api/v1/users/{id}': get(), '/api/v1/users/{id}/posts': get() });
  assert.deepEqual(lintOpenApi(doc), []);
});

describe('OpenAPI 3.2 documents', () => {
  const ok = { '200': { description: 'ok' }, '404': problem };
  const qs = (name: string) => ({
    name,
    in: 'querystring',
    content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
  });
  const doc32 = (paths: Record<string, unknown>) => ({ ...openapi(paths), openapi: '3.2.0' });

  it('lint clean with every new field used as the specification allows', () => {
    const doc = {
      ...doc32({
        '/api/v2/items/{itemId}': {
          get: { responses: ok },
          query: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: ok },
          additionalOperations: { PURGE: { responses: ok }, LINK: { responses: ok } },
        },
        '/api/v2/events': {
          get: {
            parameters: [qs('filter')],
            responses: {
              ...ok,
              '200': { description: 'ok', content: { 'text/event-stream': { itemSchema: { type: 'object' } } } },
            },
          },
        },
      }),
      $self: 'https://api.example.com/openapi.json',
      tags: [{ name: 'items', kind: 'nav', parent: 'shop' }, { name: 'shop' }],
      components: {
        securitySchemes: { legacy: { type: 'apiKey', in: 'header', name: 'X-Key', deprecated: true } },
      },
    };
    assert.deepEqual(rules(lintOpenApi(doc)), []);
  });

  it('apply the other rules to additional operations, and their x-lint-skip, whatever the spelling', () => {
    const byUser = { name: 'userId', in: 'query', schema: { type: 'string' } };
    const purge = (extra: Record<string, unknown>) =>
      doc32({
        '/api/v2/items': { additionalOperations: { purge: { parameters: [byUser], responses: ok, ...extra } } },
      });
    assert.deepEqual(rules(lintOpenApi(purge({}))), ['identifier-in-query purge /api/v2/items']);
    assert.deepEqual(rules(lintOpenApi(purge({ 'x-lint-skip': ['identifier-in-query'] }))), []);
  });

  it('find a fixed method inside additionalOperations', () => {
    const doc = doc32({
      '/api/v2/items': { additionalOperations: { POST: { responses: ok }, purge: { responses: ok } } },
    });
    const findings = lintOpenApi(doc);
    assert.deepEqual(rules(findings), ['additional-operation-fixed-method POST /api/v2/items']);
    assert.equal(findings[0]?.pointer, '/paths/~1api~1v2~1items/additionalOperations/POST');
  });

  it('find two querystring parameters, or one beside query parameters, once per operation', () => {
    const twice = doc32({
      '/api/v2/items': { parameters: [qs('a')], get: { parameters: [qs('b')], responses: ok } },
    });
    assert.deepEqual(rules(lintOpenApi(twice)), ['querystring-parameter-conflict GET /api/v2/items']);
    const mixed = doc32({
      '/api/v2/items': {
        get: { parameters: [qs('a'), { name: 'page', in: 'query', schema: { type: 'integer' } }], responses: ok },
      },
    });
    const [finding] = lintOpenApi(mixed);
    assert.equal(finding?.rule, 'querystring-parameter-conflict');
    assert.match(finding?.message ?? '', /beside in: query parameters \(page\)/);
  });
});
