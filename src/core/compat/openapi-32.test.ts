// OpenAPI 3.2's new fields, each judged by the rules its 3.1 counterpart already follows:
// `additionalOperations` and `query` are operations, a `querystring` parameter is a request value
// through its `content` schema, `itemSchema` is a body item by item, `$self` is where refs resolve.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { object } from '../../../test/support/openapi-builder.ts';
import { fingerprintOf } from './usage-gate.ts';
import { judgeChanges, operationsReached } from './usage-gate.ts';
import type { Change } from './types.ts';

const str = { type: 'string' };
const int = { type: 'integer' };
const ok = { '200': { description: 'ok' } };
const doc32 = (paths: Record<string, unknown>, components: Record<string, unknown> = {}) => ({
  openapi: '3.2.0',
  info: { title: 'Test', version: '2.0.0' },
  paths,
  components,
});
const ids = (changes: Change[]) => changes.map((c) => `${c.id}:${c.level}`).sort();
const diff = (base: unknown, revision: unknown) => diffOpenApi({ base, revision }).changes;

describe('additionalOperations: operations like the fixed ones', () => {
  const items = (extra: Record<string, unknown>) =>
    doc32({ '/api/v2/items/{id}': { get: { responses: ok }, additionalOperations: extra } });

  it('a removed method is a removed endpoint, found by its method for the usage gate', () => {
    const [change, ...rest] = diff(items({ PURGE: { responses: ok } }), items({}));
    assert.deepEqual(rest, []);
    assert.equal(change?.id, 'endpoint-removed');
    assert.equal(change?.level, 'breaking');
    assert.equal(change?.location.method, 'PURGE');
    assert.equal(change?.location.pointer, '/paths/~1api~1v2~1items~1{id}/additionalOperations/PURGE');
    assert.deepEqual(operationsReached(change), ['PURGE /api/v2/items/{id}']);
    assert.match(change?.message ?? '', /^PURGE \/api\/v2\/items\/\{id\} was removed/);
  });

  it('an added method is compatible, and a change inside one is reported on it', () => {
    assert.deepEqual(ids(diff(items({}), items({ LINK: { responses: ok } }))), ['endpoint-added:compatible']);
    const withBody = (schema: unknown) =>
      items({
        PURGE: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } },
      });
    const [change] = diff(withBody(object({ id: int, purged: int })), withBody(object({ id: int })));
    assert.equal(change?.id, 'response-property-removed');
    assert.equal(change?.location.method, 'PURGE');
    assert.equal(change?.location.path, '/api/v2/items/{id}');
  });

  it('a shared schema change reached only through one is placed on it, whatever its spelling', () => {
    const shared = (props: Record<string, unknown>) =>
      doc32(
        {
          '/api/v2/items/{id}': {
            additionalOperations: {
              'M-SEARCH': {
                responses: {
                  '200': {
                    description: 'ok',
                    content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
                  },
                },
              },
            },
          },
        },
        { schemas: { Item: object(props) } },
      );
    const [change] = diff(shared({ id: int, name: str }), shared({ id: int }));
    assert.equal(change?.id, 'response-property-removed');
    assert.equal(change?.location.method, 'M-SEARCH');
    assert.equal(change?.location.path, '/api/v2/items/{id}');
  });

  it('an entry for a fixed method is not an operation of its own (the lint reports it)', () => {
    assert.deepEqual(ids(diff(items({}), items({ POST: { responses: ok }, get: { responses: ok } }))), []);
  });

  it('methods are matched as sent: renaming a method removes one and adds another', () => {
    assert.deepEqual(ids(diff(items({ PURGE: { responses: ok } }), items({ purge: { responses: ok } }))), [
      'endpoint-added:compatible',
      'endpoint-removed:breaking',
    ]);
  });

  it('a deprecated additional operation removed before its sunset breaks', () => {
    const sunset = { responses: ok, deprecated: true, 'x-sunset': '2999-01-01' };
    assert.deepEqual(ids(diff(items({ PURGE: sunset }), items({}))), ['endpoint-removed-before-sunset:breaking']);
  });

  it('callbacks and webhooks list their additional operations too', () => {
    const hook = (extra: Record<string, unknown>) => ({
      ...doc32({}),
      webhooks: { itemPurged: { post: { responses: ok }, additionalOperations: extra } },
    });
    assert.deepEqual(ids(diff(hook({ NOTIFY: { responses: ok } }), hook({}))), ['webhook-removed:breaking']);
  });
});

describe('query: the safe method with a body', () => {
  const search = (op: Record<string, unknown> | undefined) =>
    doc32({ '/api/v2/search': { get: { responses: ok }, ...(op === undefined ? {} : { query: op }) } });
  const body = (schema: unknown) => ({
    requestBody: { required: true, content: { 'application/json': { schema } } },
    responses: ok,
  });

  it('a removed QUERY operation breaks, named QUERY', () => {
    const [change] = diff(search(body(object({ q: str }))), search(undefined));
    assert.equal(change?.id, 'endpoint-removed');
    assert.equal(change?.level, 'breaking');
    assert.equal(change?.location.method, 'QUERY');
  });

  it('its body follows the request rules', () => {
    const changes = diff(search(body(object({ q: str }))), search(body(object({ q: str, lang: str }, ['lang']))));
    assert.deepEqual(ids(changes), ['request-property-added-required:breaking']);
    assert.equal(changes[0]?.location.method, 'QUERY');
  });
});

describe("x-query: a 3.1 document's QUERY operation", () => {
  const search = (members: Record<string, unknown>) => ({
    openapi: '3.1.0',
    info: { title: 'Test', version: '1.0.0' },
    paths: { '/api/v1/search': { get: { responses: ok }, ...members } },
  });
  const answer = (schema: unknown) => ({ '200': { description: 'ok', content: { 'application/json': { schema } } } });
  const op = (request: unknown, response: unknown) => ({
    requestBody: { required: true, content: { 'application/json': { schema: request } } },
    responses: answer(response),
  });

  it('a required request property added and a response property removed break, named QUERY', () => {
    const changes = diff(
      search({ 'x-query': op(object({ q: str }), object({ id: int, score: int })) }),
      search({ 'x-query': op(object({ q: str, lang: str }, ['lang']), object({ id: int })) }),
    );
    assert.deepEqual(ids(changes), ['request-property-added-required:breaking', 'response-property-removed:breaking']);
    for (const change of changes) {
      assert.equal(change.location.method, 'QUERY');
      assert.equal(change.location.path, '/api/v1/search');
    }
  });

  it('a removed x-query operation is a removed QUERY endpoint', () => {
    const [change, ...rest] = diff(search({ 'x-query': op(object({ q: str }), object({ id: int })) }), search({}));
    assert.deepEqual(rest, []);
    assert.equal(change?.id, 'endpoint-removed');
    assert.equal(change?.location.method, 'QUERY');
  });

  it('beside a query member, x-query is not a second QUERY operation', () => {
    const both = (response: unknown) =>
      doc32({
        '/api/v2/search': {
          query: op(object({ q: str }), object({ id: int })),
          'x-query': op(object({ q: str }), response),
        },
      });
    assert.deepEqual(diff(both(object({ id: int, score: int })), both(object({ id: int }))), []);
  });
});

describe('in: querystring, compared through its content schema with the request rules', () => {
  const op = (param: Record<string, unknown> | undefined) =>
    doc32({ '/api/v2/search': { get: { parameters: param === undefined ? [] : [param], responses: ok } } });
  const qs = (schema: unknown, extra: Record<string, unknown> = {}) => ({
    name: 'filter',
    in: 'querystring',
    content: { 'application/x-www-form-urlencoded': { schema } },
    ...extra,
  });

  it('a new required member breaks, a new optional one does not', () => {
    const before = object({ q: str });
    assert.deepEqual(ids(diff(op(qs(before)), op(qs(object({ q: str, page: int }, ['page']))))), [
      'request-property-added-required:breaking',
    ]);
    assert.deepEqual(ids(diff(op(qs(before)), op(qs(object({ q: str, page: int }))))), [
      'request-property-added-optional:compatible',
    ]);
  });

  it('a narrowed member type breaks; a renamed parameter is no change (its name is never sent)', () => {
    assert.deepEqual(ids(diff(op(qs(object({ n: { type: 'number' } }))), op(qs(object({ n: int }))))), [
      'request-type-changed:breaking',
    ]);
    assert.deepEqual(ids(diff(op(qs(object({ q: str }))), op({ ...qs(object({ q: str })), name: 'query' }))), []);
  });

  it('a new spelling of the query string (its media type) is the style rule (risk)', () => {
    const json = { name: 'filter', in: 'querystring', content: { 'application/json': { schema: object({ q: str }) } } };
    assert.deepEqual(ids(diff(op(qs(object({ q: str }))), op(json))), ['request-parameter-style-changed:risk']);
  });

  it('a querystring that became required, or appeared required, breaks', () => {
    assert.deepEqual(ids(diff(op(qs(object({ q: str }))), op(qs(object({ q: str }), { required: true })))), [
      'request-parameter-became-required:breaking',
    ]);
    assert.deepEqual(ids(diff(op(undefined), op(qs(object({ q: str }), { required: true })))), [
      'request-parameter-added-required:breaking',
    ]);
  });
});

describe('itemSchema: each streamed item judged like a body', () => {
  const stream = (itemSchema: unknown, media = 'application/jsonl') =>
    doc32({
      '/api/v2/events': {
        get: { responses: { '200': { description: 'ok', content: { [media]: { itemSchema } } } } },
      },
    });
  const upload = (itemSchema: unknown) =>
    doc32({
      '/api/v2/imports': {
        post: {
          requestBody: { required: true, content: { 'application/json-seq': { itemSchema } } },
          responses: ok,
        },
      },
    });

  it('a retyped response item member breaks', () => {
    const changes = diff(stream(object({ id: int })), stream(object({ id: str })));
    assert.deepEqual(ids(changes), ['response-type-changed:breaking']);
    assert.match(changes[0]?.message ?? '', /body\[item\]/);
  });

  it('a removed response item member breaks, an added one is compatible', () => {
    assert.deepEqual(ids(diff(stream(object({ id: int, at: str })), stream(object({ id: int })))), [
      'response-property-removed:breaking',
    ]);
    assert.deepEqual(ids(diff(stream(object({ id: int })), stream(object({ id: int, at: str })))), [
      'response-property-added:compatible',
    ]);
  });

  it('a new enum value in a server-sent event is the response enum rule (risk)', () => {
    const event = (values: string[]) => object({ event: { type: 'string', enum: values }, data: str });
    const changes = diff(
      stream(event(['created', 'deleted']), 'text/event-stream'),
      stream(event(['created', 'deleted', 'archived']), 'text/event-stream'),
    );
    assert.deepEqual(ids(changes), ['response-enum-value-added:risk']);
  });

  it('a request item follows the request rules: a new required member breaks', () => {
    assert.deepEqual(ids(diff(upload(object({ id: int })), upload(object({ id: int, sku: str }, ['sku'])))), [
      'request-property-added-required:breaking',
    ]);
    assert.deepEqual(ids(diff(upload(object({ id: int }, ['id'])), upload(object({ id: int })))), [
      'request-property-became-optional:compatible',
    ]);
  });
});

describe('$self: references resolve against the document URI it declares', () => {
  // Read from local files laid out otherwise than published: only the `$self` URIs line the refs up
  // (`shared/schemas.yaml` beside the root file does not exist).
  const root = 'file:///repo/spec/openapi.yaml';
  const shared = 'file:///repo/common/schemas.yaml';
  const order = { $ref: 'shared/schemas.yaml#/Order' };
  const rootDoc = {
    ...doc32({
      '/api/v2/orders/{id}': {
        get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: order } } } } },
      },
    }),
    $self: 'https://api.example.com/openapi/openapi.yaml',
  };
  const set = (status: unknown) => ({
    root,
    documents: new Map<string, unknown>([
      [root, rootDoc],
      [
        shared,
        {
          $self: 'https://api.example.com/openapi/shared/schemas.yaml',
          Order: object({ id: int, status: { $ref: '#/Status' } }),
          Status: status,
        },
      ],
    ]),
  });

  it('a change in a document reached through $self URIs is found', () => {
    const changes = diff(set({ type: 'string', enum: ['open', 'paid'] }), set({ type: 'string', enum: ['open'] }));
    assert.deepEqual(ids(changes), ['response-enum-value-removed:breaking']);
    assert.equal(changes[0]?.location.document, shared);
    assert.deepEqual(operationsReached(changes[0] as Change), ['GET /api/v2/orders/{id}']);
  });

  it('a ref may name a document by its absolute $self URI', () => {
    const absolute = structuredClone(set({ type: 'string', enum: ['open'] }));
    const get = (absolute.documents.get(root) as { paths: Record<string, Record<string, Record<string, unknown>>> })
      .paths['/api/v2/orders/{id}']!.get!;
    get.responses = {
      '200': {
        description: 'ok',
        content: {
          'application/json': { schema: { $ref: 'https://api.example.com/openapi/shared/schemas.yaml#/Order' } },
        },
      },
    };
    assert.deepEqual(ids(diff(set({ type: 'string', enum: ['open', 'paid'] }), absolute)), [
      'response-enum-value-removed:breaking',
    ]);
  });
});

describe('deprecated security schemes (3.2)', () => {
  const secured = (deprecated: boolean) =>
    doc32(
      { '/api/v2/items': { get: { security: [{ legacyKey: [] }, { oauth: [] }], responses: ok } } },
      {
        securitySchemes: {
          legacyKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', ...(deprecated ? { deprecated: true } : {}) },
          oauth: { type: 'http', scheme: 'bearer' },
        },
      },
    );

  it('are reported, and reactivating one too', () => {
    const [change] = diff(secured(false), secured(true));
    assert.equal(change?.id, 'security-scheme-deprecated');
    assert.equal(change?.level, 'compatible');
    assert.equal(change?.location.pointer, '/components/securitySchemes/legacyKey');
    assert.deepEqual(ids(diff(secured(true), secured(false))), ['security-scheme-reactivated:compatible']);
    assert.deepEqual(ids(diff(secured(true), secured(true))), []);
  });
});

describe('the usage gate and approvals see an additional operation by its method', () => {
  const items = (extra: Record<string, unknown>) =>
    doc32({ '/api/v2/items/{id}': { get: { responses: ok }, additionalOperations: extra } });
  const changes = diff(items({ PURGE: { responses: ok } }), items({}));
  const usage = (endpoint: string) => [
    { version: 'v2', endpoint, clientId: 'cl_a', clientName: 'Acme', contact: true, calls: 4, lastSeen: 0 },
  ];
  const judge = (over: Partial<Parameters<typeof judgeChanges>[0]>) =>
    judgeChanges({ changes, version: 'v2', prefix: '/api', now: 1, ...over })[0];

  it('breaks a client that sent PURGE, not one that only sent GET', () => {
    assert.equal(judge({ usage: usage('PURGE /items/{itemId}') })?.status, 'broken');
    assert.deepEqual(judge({ usage: usage('PURGE /items/{itemId}') })?.operations, ['PURGE /api/v2/items/{id}']);
    assert.equal(judge({ usage: usage('GET /items/{itemId}') })?.status, 'unaffected');
  });

  it('an approval of its fingerprint lets it through', () => {
    const fingerprint = fingerprintOf(changes[0] as Change);
    const approvals = [{ fingerprint, reason: 'PURGE moved to DELETE', approvedBy: 'ops' }];
    assert.equal(judge({ usage: usage('PURGE /items/{id}'), approvals })?.status, 'approved');
  });
});

describe('$self without folders', () => {
  it('a urn $self finds documents by their $self alone, and a missing one is REF_BROKEN', () => {
    const root = 'file:///repo/openapi.json';
    const shared = 'file:///repo/elsewhere/types.json';
    const set = (status: string[], target = 'urn:example:types') => ({
      root,
      documents: new Map<string, unknown>([
        [
          root,
          {
            ...doc32({
              '/api/v2/orders': {
                get: {
                  responses: {
                    '200': {
                      description: 'ok',
                      content: { 'application/json': { schema: { $ref: `${target}#/Status` } } },
                    },
                  },
                },
              },
            }),
            $self: 'urn:example:api',
          },
        ],
        [shared, { $self: 'urn:example:types', Status: { type: 'string', enum: status } }],
      ]),
    });
    assert.deepEqual(ids(diff(set(['open', 'paid']), set(['open']))), ['response-enum-value-removed:breaking']);
    assert.throws(() => diff(set(['open']), set(['open'], 'urn:example:other')), { code: 'REF_BROKEN' });
  });
});
