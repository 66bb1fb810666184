import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { assertProblemShape } from '../support/assertions.ts';
import { createTestApp, json, snapshotTables, type TestApp } from '../support/test-app.ts';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** One generated request, kept as data so a failure prints something replayable. */
interface Case {
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const ascii = (maxLength: number) => fc.string({ unit: 'grapheme-ascii', maxLength });
const runs = { numRuns: 150, includeErrorInReport: true };

const existingIds = fc.constantFrom('1', '2', '3', '4', '5');
const randomIds = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom(
    '%00',
    '0',
    '-0',
    '01',
    '1e3',
    '0x10',
    '%20',
    'null',
    'undefined',
    '__proto__',
    'constructor',
    '..',
    '9'.repeat(15),
    '9'.repeat(40),
  ),
  fc
    .string({ unit: 'grapheme-ascii', minLength: 50, maxLength: 190 })
    .map(encodeURIComponent)
    .filter((s) => s.length <= 200),
);
const ids = fc.oneof({ weight: 2, arbitrary: existingIds }, { weight: 3, arbitrary: randomIds });

const routes = fc.oneof(
  fc.constant('/users'),
  ids.map((id) => `/users/${id}`),
  ids.map((id) => `/users/${id}/posts`),
  fc.tuple(ids, ids).map(([id, post]) => `/users/${id}/posts/${post}`),
  fc.constantFrom('/openapi.json', '/nothing', '/users/1/comments', ''),
);

const prefixes = fc.constantFrom('/api/v1', '/api/v2', '/api', '/api/v3', '/api/v0');

const queryValue = fc.oneof(
  fc.constantFrom(
    '1',
    '20',
    '100',
    '101',
    '0',
    '-1',
    'abc',
    '',
    'id',
    'id,name',
    'email',
    '_version',
    'id,,name',
    '__proto__',
    Buffer.from('id:3').toString('base64url'),
    Buffer.from('id:x').toString('base64url'),
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 900, maxLength: 1200 }),
);
const queries = fc
  .array(
    fc.tuple(fc.constantFrom('limit', 'cursor', 'fields', 'foo', '__proto__', 'constructor', 'limit[]'), queryValue),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length === 0
      ? ''
      : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`,
  );

const acceptValues = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/vnd.versionary.v1+json',
    'application/vnd.versionary.v2+json',
    'application/vnd.versionary.v9+json',
    'application/json; version=1',
    'application/json; version=2',
    'application/json; version=abc',
    'application/json;q=0',
    'text/html',
    '*/*',
    'application/*',
    'application/vnd.versionary.v1+json, application/vnd.versionary.v2+json',
    'application/vnd.versionary.vx+json',
    '',
  ),
  ascii(60),
);
const contentTypes = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/merge-patch+json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/xml',
    'multipart/form-data',
    'application/x-www-form-urlencoded',
    '',
  ),
  ascii(40),
);
const entityTags = fc.oneof(
  fc.constantFrom('*', '"r1.v2"', '"r1.v1"', 'W/"r1.v2"', '"r2.v2", "r1.v2"', '""', 'garbage'),
  ascii(40),
);

const headers = fc.record(
  {
    accept: acceptValues,
    'content-type': contentTypes,
    'if-match': entityTags,
    'if-none-match': entityTags,
  },
  { requiredKeys: [] },
);

/** Keys that have poisoned prototypes in other frameworks. */
const dangerousKey = fc.constantFrom('__proto__', 'constructor', 'prototype', '\\u005f_proto__');
const poisoned = fc
  .tuple(dangerousKey, fc.jsonValue({ maxDepth: 2 }), fc.boolean())
  .map(([key, value, withName]) => `{${withName ? '"name":"x",' : ''}"${key}":${JSON.stringify(value ?? null)}}`);
const deep = fc
  .integer({ min: 10, max: 5000 })
  .chain((depth) =>
    fc.constantFrom(
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
      `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
      `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    ),
  );
const userish = fc
  .record(
    {
      name: fc.oneof(fc.string({ maxLength: 250 }), fc.integer(), fc.constant(null)),
      email: fc.oneof(fc.emailAddress(), fc.string(), fc.constant(null)),
      nickname: fc.oneof(fc.string({ maxLength: 120 }), fc.constant(null)),
      status: fc.oneof(fc.constantFrom('active', 'inactive', 'pending', 'gone'), fc.integer()),
      title: fc.string({ maxLength: 310 }),
      body: fc.string(),
      _version: fc.integer(),
    },
    { requiredKeys: [] },
  )
  .map((o) => JSON.stringify(o));
const bodies = fc.oneof(
  { weight: 3, arbitrary: userish },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 2, arbitrary: poisoned },
  { weight: 1, arbitrary: deep },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1000, max: 60_000 })
      .map((n) => JSON.stringify({ name: 'x', nickname: 'n'.repeat(n) })),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.constant(JSON.stringify({ title: 't', body: 'b'.repeat(1024 * 1024 + 1) })) },
);

const methods = fc.constantFrom<Method>('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');

const cases: fc.Arbitrary<Case> = fc
  .record({
    method: methods,
    prefix: prefixes,
    route: routes,
    query: queries,
    headers,
    payload: fc.option(bodies, { nil: undefined }),
  })
  .map(({ method, prefix, route, query, headers: h, payload }) => ({
    method,
    url: `${prefix}${route}${query}`,
    headers: Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>,
    ...(payload !== undefined && method !== 'GET' && method !== 'HEAD' ? { payload } : {}),
  }));

/** Every member name and query parameter name the generated requests carried. */
const generatedKeys = new Set<string>();
/** Object.prototype as it was before any request: its own names and the values behind them. */
const prototypeBefore = new Map(
  Object.getOwnPropertyNames(Object.prototype).map((name) => [
    name,
    Object.getOwnPropertyDescriptor(Object.prototype, name),
  ]),
);

function collectKeys(c: Case): void {
  for (const name of new URLSearchParams(c.url.split('?')[1] ?? '').keys()) generatedKeys.add(name);
  let body: unknown;
  try {
    body = c.payload === undefined ? undefined : JSON.parse(c.payload);
  } catch {
    return;
  }
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const key of Object.keys(value)) {
      generatedKeys.add(key);
      walk((value as Record<string, unknown>)[key]);
    }
  };
  walk(body);
}

describe('property: no request breaks the service', () => {
  let t: TestApp;
  before(async () => {
    // Hundreds of generated requests from one client: the rate limit is not what is under test.
    t = await createTestApp({ rateLimitMax: 1_000_000 });
    await seed(t);
  });
  after(() => t.close());

  const send = (c: Case): Promise<LightMyRequestResponse> => t.app.inject(c as InjectOptions);

  const check = async (c: Case): Promise<void> => {
    collectKeys(c);
    const before = await snapshotTables(t.db);
    const res = await send(c);
    const label = `${c.method} ${c.url.slice(0, 200)} ${JSON.stringify(c.headers)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
    assert.ok(res.statusCode < 500, `5xx: ${label}`);
    assert.equal(res.headers['set-cookie'], undefined, label);
    if (res.statusCode >= 400) {
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/, `content-type: ${label}`);
      if (c.method !== 'HEAD') assertProblemShape(json(res), res.statusCode);
      assert.equal(await snapshotTables(t.db), before, `4xx changed the database: ${label}`);
    }
    if ((await t.storage.users.count()) < 3) await seed(t);
  };

  it('answers every generated request below 500, errors as problems, rejected requests changing nothing', async () => {
    await fc.assert(fc.asyncProperty(cases, check), runs);
  });

  it('holds for write routes with generated bodies in both versions', async () => {
    const writes = fc
      .record({
        method: fc.constantFrom<Method>('POST', 'PUT', 'PATCH'),
        version: fc.constantFrom('/api/v1', '/api/v2'),
        target: fc.oneof(
          existingIds.map((id) => `/users/${id}`),
          fc.constant('/users'),
          existingIds.map((id) => `/users/${id}/posts`),
        ),
        type: fc.constantFrom('application/json', 'application/merge-patch+json'),
        payload: bodies,
      })
      .map(({ method, version, target, type, payload }): Case => ({
        method,
        url: `${version}${target}`,
        headers: { 'content-type': type },
        payload,
      }));
    await fc.assert(fc.asyncProperty(writes, check), runs);
  });

  it('holds for every route with generated ids and queries under GET', async () => {
    const reads = fc
      .record({ prefix: fc.constantFrom('/api/v1', '/api/v2'), route: routes, query: queries, headers })
      .map(({ prefix, route, query, headers: h }): Case => ({
        method: 'GET',
        url: `${prefix}${route}${query}`,
        headers: Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>,
      }));
    await fc.assert(fc.asyncProperty(reads, check), runs);
  });

  it('holds for ids the router itself refuses (bad percent-encoding, over 200 characters)', async () => {
    const routerIds = fc.oneof(
      fc.constantFrom('%E0%A4%A', '%', '%zz', '%C0'),
      fc.string({ unit: 'grapheme-ascii', minLength: 201, maxLength: 400 }).map((s) => encodeURIComponent(s)),
    );
    const bad = fc
      .tuple(fc.constantFrom('/api/v1', '/api/v2'), routerIds, methods)
      .map(([prefix, id, method]): Case => ({ method, url: `${prefix}/users/${id}`, headers: {} }));
    await fc.assert(fc.asyncProperty(bad, check), { numRuns: 30, includeErrorInReport: true });
  });

  it('never pollutes Object.prototype with any generated key', () => {
    assert.ok(generatedKeys.size > 50, `the runs above generated keys (${generatedKeys.size})`);
    assert.ok(generatedKeys.has('__proto__') && generatedKeys.has('constructor'), 'the dangerous keys were tried');
    assert.deepEqual(
      Object.getOwnPropertyNames(Object.prototype).sort(),
      [...prototypeBefore.keys()].sort(),
      'no name added to Object.prototype',
    );
    for (const [name, descriptor] of prototypeBefore)
      assert.deepEqual(
        Object.getOwnPropertyDescriptor(Object.prototype, name),
        descriptor,
        `Object.prototype.${name} unchanged`,
      );
    const probe: Record<string, unknown> = {};
    for (const key of generatedKeys) {
      if (prototypeBefore.has(key)) continue;
      assert.equal(Object.hasOwn(Object.prototype, key), false, `Object.prototype has no own ${JSON.stringify(key)}`);
      assert.equal(probe[key], undefined, `a fresh object inherits no ${JSON.stringify(key)}`);
    }
  });
});

async function seed(t: TestApp): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const user = await t.storage.users.create({
      values: {
        name: `seed ${i}`,
        email: i % 2 ? `s${i}@example.com` : null,
        nickname: null,
        status: i === 2 ? 'pending' : 'active',
      },
      at: new Date(0).toISOString(),
    });
    await t.storage.posts.create({ userId: user.id, title: `post ${i}`, body: 'b', at: new Date(0).toISOString() });
  }
}
