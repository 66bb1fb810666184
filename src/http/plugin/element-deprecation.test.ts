import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { createFixedClock } from '../../core/clock/index.ts';
import { defineVersionChange, defineVersions, endpointAdded, type OperationSpec } from '../../core/versions/index.ts';
import { versionary, type UsageEvent } from './index.ts';

const day = 86_400_000;
const now = Date.UTC(2026, 10, 1);
const operations: OperationSpec[] = [
  {
    id: 'books.list',
    method: 'GET',
    path: '/books',
    summary: 'List books',
    query: { type: 'object', properties: { order: { type: 'string' }, sort: { type: 'string' } } },
    responses: { 200: { description: 'Books', schema: 'Book' } },
  },
  {
    id: 'books.create',
    method: 'POST',
    path: '/books',
    summary: 'Add a book',
    body: 'Book',
    responses: { 201: { description: 'Added', schema: 'Book' } },
  },
  {
    id: 'books.count',
    method: 'GET',
    path: '/count',
    summary: 'Count books',
    responses: { 200: { description: 'Count', schema: 'Count' } },
  },
];
const bundle = defineVersions({
  head: {
    schemas: {
      Book: {
        type: 'object',
        properties: { title: { type: 'string' }, isbn10: { type: 'string' }, isbn: { type: 'string' } },
      },
      Count: { type: 'object', properties: { n: { type: 'integer' } } },
    },
    operations,
  },
  versions: [{ name: 'v1' }],
});
const handlers = {
  'books.list': async () => ({ status: 200, body: { title: 'Dune' } }),
  'books.create': async () => ({ status: 201, body: { title: 'Dune' } }),
  'books.count': async () => ({ status: 200, body: { n: 1 } }),
};

async function appAt(at: number, calls: UsageEvent[] = []) {
  const app = Fastify();
  const clock = createFixedClock(at);
  await app.register(versionary, {
    bundle,
    handlers,
    vendor: 'books',
    clock,
    onUsage: (call) => calls.push(call),
    lifecycle: {
      fieldDeprecations: [
        {
          version: 'v1',
          schema: 'Book',
          field: 'isbn10',
          deprecatedAt: now - day,
          sunsetAt: now + 200 * day,
          replacement: 'isbn',
        },
      ],
      parameterDeprecations: [
        {
          version: 'v1',
          method: 'GET',
          path: '/books',
          parameter: 'order',
          deprecatedAt: '2026-10-01',
          sunsetAt: '2027-10-01',
          replacement: 'sort',
          migrationUrl: 'https://books.example/sort',
        },
      ],
    },
  });
  return app;
}

test('the plugin alone: an element used gets its headers and reaches onUsage; a current version otherwise gets none', async () => {
  const calls: UsageEvent[] = [];
  const app = await appAt(now, calls);
  const used = await app.inject({
    method: 'POST',
    url: '/api/v1/books',
    payload: { title: 'Dune', isbn10: '0441013597' },
  });
  assert.equal(used.statusCode, 201, used.body);
  assert.equal(used.headers.deprecation, new Date(now - day).toISOString());
  assert.match(String(used.headers.link), /<\/api\/versions>; rel="deprecation"; title="Book\.isbn10"/);
  const param = await app.inject({ url: '/api/v1/books?order=title' });
  assert.match(
    String(param.headers.link),
    /<https:\/\/books\.example\/sort>; rel="deprecation"; title="GET \/books\?order"/,
  );
  for (const res of [
    await app.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'Dune', isbn: '9780441013593' } }),
    await app.inject({ url: '/api/v1/books?sort=title' }),
    await app.inject({ url: '/api/v1/count' }),
  ])
    for (const name of ['deprecation', 'sunset', 'link', 'warning']) assert.equal(res.headers[name], undefined, name);
  assert.deepEqual(
    calls.map((c) => [c.element, c.endpoint, c.version]),
    [
      ['Book.isbn10', 'POST /books', 'v1'],
      ['GET /books?order', 'GET /books', 'v1'],
    ],
  );
  await app.close();
});

test('in its last 30 days an element used gets Warning: 299; after its sunset a 400 that names its replacement', async () => {
  const late = await appAt(now + 185 * day);
  const warned = await late.inject({ url: '/api/v1/books?order=title' });
  assert.equal(warned.statusCode, 200);
  assert.equal(warned.headers.warning, undefined, 'the parameter has a year left');
  const field = await late.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'x', isbn10: 'y' } });
  assert.match(
    String(field.headers.warning),
    /^299 - "Book\.isbn10 in v1 is deprecated and will be removed in 15 days/,
  );
  await late.close();
  const gone = await appAt(now + 201 * day);
  const refused = await gone.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'x', isbn10: 'y' } });
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.json().code, 'ELEMENT_REMOVED');
  assert.match(refused.json().detail, /Use Book\.isbn instead/);
  await gone.close();
});

test('a deprecation of an element the version lacks fails registration, naming each one', async () => {
  const app = Fastify();
  await assert.rejects(
    async () => {
      await app.register(versionary, {
        bundle,
        handlers,
        vendor: 'books',
        lifecycle: {
          fieldDeprecations: [
            { version: 'v1', schema: 'Bok', field: 'x', deprecatedAt: now, sunsetAt: now + 200 * day },
          ],
          parameterDeprecations: [
            {
              version: 'v1',
              method: 'GET',
              path: '/books',
              parameter: 'q',
              deprecatedAt: now,
              sunsetAt: now + 10 * day,
            },
          ],
        },
      });
      await app.ready();
    },
    (error: Error) => {
      assert.match(error.message, /names schema Bok, which v1 does not have/);
      assert.match(error.message, /has no query parameter "q"/);
      assert.match(error.message, /need at least 180 days of notice/);
      return true;
    },
  );
});

test('on a deprecated version, an element used merges its headers: the earliest dates win, and every Link stays', async () => {
  const app = Fastify();
  await app.register(versionary, {
    bundle: defineVersions({
      head: bundle.head,
      versions: [
        { name: 'v1' },
        {
          name: 'v2',
          changes: [defineVersionChange({ description: 'Counts.', instructions: [endpointAdded('GET', '/count')] })],
        },
      ],
    }),
    handlers,
    vendor: 'books',
    clock: createFixedClock(now),
    lifecycle: {
      versions: {
        v1: { deprecatedAt: now - 10 * day, sunsetAt: now + 400 * day, migrationUrl: 'https://books.example/v2' },
      },
      fieldDeprecations: [
        { version: 'v1', schema: 'Book', field: 'isbn10', deprecatedAt: now - day, sunsetAt: now + 200 * day },
      ],
    },
  });
  const plain = await app.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'x' } });
  assert.equal(plain.headers.deprecation, new Date(now - 10 * day).toISOString());
  assert.equal(plain.headers.sunset, new Date(now + 400 * day).toISOString());
  const used = await app.inject({ method: 'POST', url: '/api/v1/books', payload: { title: 'x', isbn10: 'y' } });
  assert.equal(used.headers.deprecation, new Date(now - 10 * day).toISOString(), "the version's earlier date");
  assert.equal(used.headers.sunset, new Date(now + 200 * day).toISOString(), "the element's earlier sunset");
  const link = String(used.headers.link);
  assert.match(link, /<https:\/\/books\.example\/v2>; rel="deprecation"(,|$)/);
  assert.match(link, /<https:\/\/books\.example\/v2>; rel="deprecation"; title="Book\.isbn10"/);
  await app.close();
});
