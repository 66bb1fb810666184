import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from '../compat/index.ts';
import { object, openapi } from '../../../test/support/openapi-builder.ts';
import { isVersionaryError } from '../errors/index.ts';
import { createMigrationGuide } from './create-migration-guide.ts';
import { toHtml } from './render.ts';
import { toJson } from './render.ts';
import { toMarkdown } from './render.ts';

const user = object({ id: { type: 'integer' }, name: { type: 'string' } }, ['id', 'name']);
const v1 = openapi(
  {
    '/api/v1/users': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/User' } } },
            },
          },
        },
      },
    },
    '/api/v1/users/{id}': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
          },
        },
      },
    },
  },
  { User: user },
);
const v2 = openapi(
  {
    '/api/v1/users': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: object({
                  data: { type: 'array', items: { $ref: '#/components/schemas/User' } },
                  meta: { type: 'object' },
                }),
              },
            },
          },
        },
      },
    },
    '/api/v1/users/{id}': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
          },
        },
      },
    },
    '/api/v1/users/{id}/posts': { get: { responses: { '200': { description: 'ok' } } } },
  },
  { User: object({ id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } }, ['id', 'name']) },
);
const changes = diffOpenApi({ base: v1, revision: v2 }).changes;

describe('createMigrationGuide', () => {
  it('lists breaking changes with endpoint, old and new behaviour, and additive changes', () => {
    const guide = createMigrationGuide({ from: 'v1', to: 'v2', changes, deprecatedAt: '2026-01-01' });
    assert.deepEqual(
      guide.breaking.map((e) => [e.endpoint, e.rule]),
      [['GET /api/v1/users', 'response-type-changed']],
    );
    assert.equal(guide.breaking[0]?.oldBehaviour, 'Was array.');
    assert.match(guide.breaking[0]?.newBehaviour ?? '', /from array to object/);
    // A change to the User schema names every operation that returns a User: the list, whose
    // type changed around it, too.
    assert.deepEqual(guide.additive.map((e) => e.endpoint).sort(), [
      'GET /api/v1/users, GET /api/v1/users/{id}',
      'GET /api/v1/users/{id}/posts',
    ]);
    assert.deepEqual(guide.additive.find((e) => e.rule === 'response-property-added')?.operations, [
      'GET /api/v1/users',
      'GET /api/v1/users/{id}',
    ]);
  });
  it('computes the timeline from the deprecation date: sunset after 6 months, removal after 12 (30-day months)', () => {
    const guide = createMigrationGuide({ from: 'v1', to: 'v2', changes, deprecatedAt: '2026-01-01T00:00:00Z' });
    assert.deepEqual(guide.timeline, {
      deprecatedAt: '2026-01-01T00:00:00Z',
      sunsetAt: '2026-06-30T00:00:00Z',
      removedAt: '2026-12-27T00:00:00Z',
    });
  });
  it('takes explicit dates when given and rejects a timeline that runs backwards', () => {
    const guide = createMigrationGuide({
      from: 'v1',
      to: 'v2',
      changes,
      deprecatedAt: '2026-01-01',
      sunsetAt: '2026-09-01',
      removedAt: '2027-03-01T12:00:00+02:00',
    });
    assert.equal(guide.timeline.sunsetAt, '2026-09-01T00:00:00Z');
    assert.equal(guide.timeline.removedAt, '2027-03-01T10:00:00Z');
    assert.throws(
      () => createMigrationGuide({ from: 'v1', to: 'v2', changes, deprecatedAt: '2026-01-01', sunsetAt: '2025-01-01' }),
      (e) => isVersionaryError(e) && e.code === 'INVALID_SCHEDULE',
    );
  });
  it('moves the default removal to a sunset later than 12 months', () => {
    const guide = createMigrationGuide({
      from: 'v1',
      to: 'v2',
      changes,
      deprecatedAt: '2026-01-01',
      sunsetAt: '2027-02-01',
    });
    assert.deepEqual(guide.timeline, {
      deprecatedAt: '2026-01-01T00:00:00Z',
      sunsetAt: '2027-02-01T00:00:00Z',
      removedAt: '2027-02-01T00:00:00Z',
    });
  });
  it('keeps the declared prose in order', () => {
    const guide = createMigrationGuide({
      from: 'v1',
      to: 'v2',
      changes,
      deprecatedAt: '2026-01-01',
      notes: ['Lists are wrapped.', 'Users gain email.'],
    });
    assert.deepEqual(guide.notes, ['Lists are wrapped.', 'Users gain email.']);
  });
});

describe('renderers', () => {
  const guide = createMigrationGuide({
    from: 'v1',
    to: 'v2<script>',
    changes,
    deprecatedAt: '2026-01-01',
    notes: ['Use <b>data</b> & "meta"'],
  });
  it('Markdown has the timeline, the tables and the notes', () => {
    const md = toMarkdown(guide);
    assert.match(md, /^# Migrating from v1 to v2&lt;script>/);
    assert.match(
      md,
      /\| Sunset: removed, requests answered 410 Gone \(Sunset header date\) \| 2026-06-30T00:00:00Z \|/,
    );
    assert.match(md, /\| GET \/api\/v1\/users \| Was array\. \| .*from array to object/);
    assert.match(md, /## Additive changes/);
    assert.match(md, /- Use &lt;b>data&lt;\/b> & "meta"/);
  });
  it('HTML is a complete page with every text escaped', () => {
    const html = toHtml(guide);
    assert.match(html, /^<!doctype html>\n<html lang="en">/);
    assert.match(html, /<\/body>\n<\/html>\n$/);
    assert.ok(!html.includes('<script>'), 'no raw script tag');
    assert.ok(html.includes('v2&lt;script&gt;'));
    assert.ok(html.includes('Use &lt;b&gt;data&lt;/b&gt; &amp; &quot;meta&quot;'));
    assert.ok(!/<(link|script|img)\b/.test(html), 'self-contained');
  });
  it('JSON round-trips the guide', () => {
    assert.deepEqual(JSON.parse(toJson(guide)), guide);
  });
});

describe('guides that read well', () => {
  const items = (schema: Record<string, unknown>, synthetic: Record<string, unknown>) =>
    openapi(
      {
        '/items': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/listItems_200' } } },
              },
            },
          },
        },
      },
      { listItems_200: synthetic, Item: schema },
    );
  const item = object({ id: { type: 'integer' } }, ['id']);
  const before = items(item, { type: 'array', items: { $ref: '#/components/schemas/Item' } });
  const after = items(object({ id: { type: 'integer' }, tag: { type: 'string' } }, ['id']), {
    ...object({ data: { type: 'array', items: { $ref: '#/components/schemas/Item' } } }, ['data']),
  });
  const documents = { base: before, revision: after };
  const g = createMigrationGuide({
    from: 'v1',
    to: 'v2',
    changes: diffOpenApi(documents).changes,
    deprecatedAt: '2026-01-01',
    documents,
    notes: ['Lists wrap `data<T>`.'],
  });

  it('names the operation, never a synthetic schema name like listItems_200', () => {
    const text = JSON.stringify(g) + toMarkdown(g) + toHtml(g);
    assert.ok(!text.includes('listItems_200'), text);
    assert.equal(g.breaking[0]?.endpoint, 'GET /items');
    assert.equal(g.breaking[0]?.newBehaviour, 'Response value `body` changed type from array to object.');
  });

  it('a changed type carries its compact JSON Schema before and after; renderers show both', () => {
    assert.deepEqual(g.breaking[0]?.before, { type: 'array', items: { $ref: '#/components/schemas/Item' } });
    assert.deepEqual(g.breaking[0]?.after, {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Item' } } },
    });
    const md = toMarkdown(g);
    assert.match(
      md,
      /Before:\n\n```json\n\{ "type": "array", "items": \{ "\$ref": "#\/components\/schemas\/Item" \} \}\n```/,
    );
    assert.match(md, /After:\n\n```json\n\{\n {2}"type": "object",\n {2}"required": \["data"\],/);
    assert.match(md, /- Lists wrap `data<T>`\./, 'a code span shows what it holds, unescaped');
    const html = toHtml(g);
    assert.match(html, /<pre aria-label="Before"><code>\{ &quot;type&quot;: &quot;array&quot;/);
    assert.match(html, /<pre aria-label="After"><code>\{\n {2}&quot;type&quot;: &quot;object&quot;/);
  });

  it('HTML shows code spans as <code>, escaped, and no backtick', () => {
    const html = toHtml(g);
    assert.ok(html.includes('<li>Lists wrap <code>data&lt;T&gt;</code>.</li>'), html);
    assert.ok(html.includes('Response value <code>body</code> changed type'));
    assert.ok(!html.includes('`'));
  });
});

describe('guide dates', () => {
  it('reads ISO dates and offsets, and shows milliseconds only when there are some', () => {
    const at = (deprecatedAt: string) => createMigrationGuide({ from: 'v1', to: 'v2', changes, deprecatedAt }).timeline;
    assert.equal(at('2026-07-04T10:20:30.250Z').deprecatedAt, '2026-07-04T10:20:30.250Z');
    assert.equal(at('2024-12-31T23:00:00-01:30').deprecatedAt, '2025-01-01T00:30:00Z');
    assert.equal(at(' 1970-01-01 ').deprecatedAt, '1970-01-01T00:00:00Z');
  });
  it('rejects impossible dates with INVALID_SCHEDULE', () => {
    for (const deprecatedAt of ['2026-02-30', '2026-13-01', 'next spring', '2026-1-1'])
      assert.throws(
        () => createMigrationGuide({ from: 'v1', to: 'v2', changes, deprecatedAt }),
        (e) => isVersionaryError(e) && e.code === 'INVALID_SCHEDULE',
        deprecatedAt,
      );
  });
});
