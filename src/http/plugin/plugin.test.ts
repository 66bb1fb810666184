import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { createFixedClock } from '../../core/clock/index.ts';
import { type LifecycleConfig, type LifecycleSource, type LifecycleVerdict } from '../../core/lifecycle/index.ts';
import { parseIsoInstant } from '../../core/time/index.ts';
import { defineVersionChange, defineVersions, fieldAdded, ref, type OperationSpec } from '../../core/versions/index.ts';
import { defineHandlers, versionary, versionRewriter, type UsageEvent, type VersionaryPluginOptions } from './index.ts';

const none = { type: 'object', additionalProperties: false };
const operations: OperationSpec[] = [
  {
    id: 'notes.list',
    method: 'GET',
    path: '/notes',
    summary: 'List notes',
    query: none,
    responses: { 200: { description: 'Notes', schema: 'NoteList' } },
  },
  {
    id: 'notes.pin',
    method: 'POST',
    path: '/notes/{id}/pin',
    summary: 'Pin a note',
    query: none,
    responses: { 200: { description: 'Pinned', schema: 'Note' } },
  },
];
const bundle = defineVersions({
  head: {
    schemas: {
      Note: {
        type: 'object',
        required: ['id', 'text'],
        properties: { id: { type: 'integer' }, text: { type: 'string' }, colour: { type: 'string' } },
      },
      NoteList: { type: 'array', items: ref('Note') },
    },
    operations,
  },
  versions: [
    { name: 'v1' },
    {
      name: 'v2',
      changes: [
        defineVersionChange({ description: 'Notes gain a colour.', instructions: [fieldAdded('Note', 'colour')] }),
      ],
    },
  ],
});
const note = { id: 1, text: 'buy milk', colour: 'yellow' };
const handlers = defineHandlers({
  'notes.list': async () => ({ status: 200, body: [note] }),
  'notes.pin': async () => ({ status: 200, body: note }),
});
const at = (iso: string) => parseIsoInstant(iso)!;
const lifecycle: LifecycleConfig = {
  versions: {
    v1: {
      releasedAt: '2025-01-01',
      deprecatedAt: '2026-01-01',
      sunsetAt: '2026-12-31',
      migrationUrl: 'https://notes.example/v2',
    },
    v2: { releasedAt: '2026-01-01' },
  },
  endpointDeprecations: [
    { version: 'v2', method: 'POST', path: '/notes/{id}/pin', deprecatedAt: '2026-02-01', sunsetAt: '2026-09-01' },
  ],
};

async function build(options: Partial<VersionaryPluginOptions> = {}, now = at('2026-03-01')) {
  const clock = createFixedClock(now);
  const usage: UsageEvent[] = [];
  const app = Fastify({ rewriteUrl: versionRewriter({ bundle, vendor: 'notes' }) });
  await app.register(versionary, {
    bundle,
    handlers,
    vendor: 'notes',
    lifecycle,
    clock,
    onUsage: (call) => usage.push(call),
    ...options,
  });
  await app.ready();
  return { app, clock, usage };
}

test('v1 carries the deprecation headers, v2 none; calls to deprecated ones reach onUsage', async () => {
  const { app, usage } = await build();
  const v1 = await app.inject({ url: '/api/v1/notes' });
  assert.equal(v1.statusCode, 200);
  assert.deepEqual(v1.json(), [{ id: 1, text: 'buy milk' }]);
  assert.equal(v1.headers.deprecation, '2026-01-01T00:00:00.000Z');
  assert.equal(v1.headers.sunset, '2026-12-31T00:00:00.000Z');
  assert.equal(
    v1.headers.link,
    '<https://notes.example/v2>; rel="deprecation", </api/v2/openapi.json>; rel="successor-version"',
  );
  assert.equal(v1.headers['api-deprecated-versions'], 'v1');
  const v2 = await app.inject({ url: '/api/v2/notes' });
  assert.equal(v2.statusCode, 200);
  assert.equal(v2.headers.deprecation, undefined);
  assert.equal(v2.headers.sunset, undefined);
  assert.equal(v2.headers['api-supported-versions'], 'v2');
  assert.deepEqual(
    usage.map((u) => `${u.version} ${u.endpoint}`),
    ['v1 GET /notes'],
  );
  assert.equal(usage[0]!.at, at('2026-03-01'));
});

test('onCall hears every call that reached an operation of any version, before onUsage, and nothing else', async () => {
  const heard: string[] = [];
  const { app } = await build({
    clientIdOf: (request) => String(request.headers['x-client'] ?? 'anon'),
    onCall: (call) => heard.push(`call ${call.version} ${call.endpoint} ${call.clientId} ${call.at}`),
    onUsage: (call) => heard.push(`usage ${call.version} ${call.endpoint}`),
  });
  await app.inject({ url: '/api/v1/notes', headers: { 'x-client': 'c1' } });
  await app.inject({ url: '/api/v2/notes' });
  await app.inject({ method: 'POST', url: '/api/v2/notes/7/pin' });
  // Not an operation: OPTIONS, a method the path lacks, an unknown path.
  assert.equal((await app.inject({ method: 'OPTIONS', url: '/api/v2/notes' })).statusCode, 204);
  assert.equal((await app.inject({ method: 'DELETE', url: '/api/v2/notes' })).statusCode, 405);
  assert.equal((await app.inject({ url: '/api/v2/nothing' })).statusCode, 404);
  const t = at('2026-03-01');
  assert.deepEqual(heard, [
    `call v1 GET /notes c1 ${t}`,
    'usage v1 GET /notes',
    `call v2 GET /notes anon ${t}`,
    `call v2 POST /notes/{id}/pin anon ${t}`,
    'usage v2 POST /notes/{id}/pin',
  ]);
});

test('Accept negotiation through the rewriter, with Vary', async () => {
  const { app } = await build();
  const res = await app.inject({ url: '/api/notes', headers: { accept: 'application/vnd.notes+json; version=1' } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers.vary, 'Accept');
  assert.equal(res.headers.deprecation, '2026-01-01T00:00:00.000Z');
});

test('a deprecated endpoint of a current version has its own headers', async () => {
  const { app } = await build();
  const res = await app.inject({ method: 'POST', url: '/api/v2/notes/1/pin' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers.sunset, '2026-09-01T00:00:00.000Z');
  assert.match(String(res.headers.link), /<\/api\/versions>; rel="deprecation"/);
});

test('as the clock passes the sunset: a Warning in the last 30 days, then 410 problems', async () => {
  const { app, clock } = await build({}, at('2026-12-10'));
  const warned = await app.inject({ url: '/api/v1/notes' });
  assert.match(String(warned.headers.warning), /^299 - "API version v1 is deprecated and will be removed in 21 days/);
  clock.set(at('2027-01-02'));
  const gone = await app.inject({ url: '/api/v1/notes' });
  assert.equal(gone.statusCode, 410);
  assert.equal(gone.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(gone.json().code, 'VERSION_REMOVED');
  assert.equal(gone.headers.sunset, '2026-12-31T00:00:00.000Z');
  assert.equal((await app.inject({ url: '/api/v2/notes' })).statusCode, 200);
});

test('rfc header style: RFC 9745 Deprecation and RFC 8594 Sunset', async () => {
  const { app } = await build({ lifecycle: { ...lifecycle, headerStyle: 'rfc' } });
  const res = await app.inject({ url: '/api/v1/notes' });
  assert.equal(res.headers.deprecation, `@${at('2026-01-01') / 1000}`);
  assert.equal(res.headers.sunset, 'Thu, 31 Dec 2026 00:00:00 GMT');
});

test('a refusal before the lifecycle step (an Accept naming another version) still carries the deprecation headers', async () => {
  const { app } = await build({});
  const res = await app.inject({ url: '/api/v1/notes', headers: { accept: 'application/json; version=2' } });
  assert.equal(res.statusCode, 400, res.body);
  assert.equal(res.headers.deprecation, '2026-01-01T00:00:00.000Z');
  assert.equal(res.headers.sunset, '2026-12-31T00:00:00.000Z');
  assert.match(String(res.headers.link), /rel="deprecation"/);
  const current = await app.inject({ url: '/api/v2/notes', headers: { accept: 'application/json; version=1' } });
  assert.equal(current.statusCode, 400, current.body);
  assert.equal(current.headers.deprecation, undefined);
});

test('OpenAPI documents per version, with deprecations marked, and the lifecycle document', async () => {
  const { app } = await build({ openapi: { title: 'Notes' } });
  const doc = (await app.inject({ url: '/api/v2/openapi.json' })).json();
  assert.equal(doc.info.title, 'Notes');
  assert.equal(doc.paths['/api/v2/notes/{id}/pin'].post.deprecated, true);
  assert.equal(doc.paths['/api/v2/notes'].get.deprecated, undefined);
  // The SDK generators' own extensions beside deprecated and x-sunset, the message in the description too.
  const pin = doc.paths['/api/v2/notes/{id}/pin'].post;
  assert.equal(pin['x-sunset'], '2026-09-01T00:00:00.000Z');
  assert.match(
    pin['x-stainless-deprecation-message'],
    /^Deprecated since 2026-02-01; sunset 2026-09-01 \(removed after\)\./,
  );
  assert.equal(pin['x-speakeasy-deprecation-message'], pin['x-stainless-deprecation-message']);
  assert.equal(pin['x-fern-availability'], 'deprecated');
  assert.equal(pin.description, pin['x-stainless-deprecation-message']);
  const v1 = (await app.inject({ url: '/api/v1/openapi.json' })).json();
  assert.equal(
    v1.paths['/api/v1/notes'].get['x-speakeasy-deprecation-message'],
    'Deprecated since 2026-01-01; sunset 2026-12-31 (removed after). Use `v2` instead. Guide: https://notes.example/v2',
  );
  assert.equal(v1.paths['/api/v1/notes'].get['x-speakeasy-deprecation-replacement'], undefined);
  const versions = (await app.inject({ url: '/api/versions' })).json();
  assert.deepEqual(
    versions.versions.map((v: { name: string; status: string }) => `${v.name}:${v.status}`),
    ['v1:ending_soon', 'v2:not_deprecated'],
  );
});

test('problems: unknown version, unknown route and bad Accept are RFC 9457 4xx', async () => {
  const { app } = await build();
  const unknown = await app.inject({ url: '/api/v9/notes' });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().code, 'VERSION_UNKNOWN');
  const bad = await app.inject({
    url: '/api/notes',
    headers: { accept: 'application/vnd.notes+json; version=banana' },
  });
  assert.ok(bad.statusCode >= 400 && bad.statusCode < 500);
  assert.equal(bad.headers['content-type'], 'application/problem+json; charset=utf-8');
  const method = await app.inject({ method: 'DELETE', url: '/api/v2/notes' });
  assert.equal(method.statusCode, 405);
});

test("notFound: false and versionListHeaders: 'api' leave the app's own 404 and routes alone", async () => {
  const app = Fastify({ rewriteUrl: versionRewriter({ bundle, vendor: 'notes' }) });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send('mine'));
  app.get('/health', async () => 'ok');
  await app.register(versionary, {
    bundle,
    handlers,
    vendor: 'notes',
    lifecycle,
    clock: createFixedClock(at('2026-03-01')),
    notFound: false,
    versionListHeaders: 'api',
  });
  await app.ready();
  const health = await app.inject({ url: '/health' });
  assert.equal(health.headers['api-supported-versions'], undefined);
  const mine = await app.inject({ url: '/api/v9/notes' });
  assert.deepEqual([mine.statusCode, mine.body], [404, 'mine'], "the app's own not-found handler");
  assert.equal(mine.headers['api-supported-versions'], 'v2', 'a path under the prefix is the API');
  const v1 = await app.inject({ url: '/api/v1/notes' });
  assert.equal(v1.headers['api-supported-versions'], 'v2');
  assert.ok(v1.headers.deprecation);
});

test('a lifecycle source (such as a storage-backed runtime) replaces the config', async () => {
  const source: LifecycleSource = {
    verdict: ({ version }): LifecycleVerdict =>
      version === 'v2'
        ? { headers: { Deprecation: '@1' }, deprecated: true, sunsetAt: 0 }
        : { headers: {}, deprecated: false },
  };
  const { app } = await build({ lifecycle: source });
  assert.equal((await app.inject({ url: '/api/v2/notes' })).headers.deprecation, '@1');
  assert.equal((await app.inject({ url: '/api/v1/notes' })).headers.deprecation, undefined);
});

test('bad options fail at registration with every problem listed', async () => {
  const app = Fastify();
  const bad = {
    bundle,
    vendor: 'no spaces please',
    prefix: 'api/',
    clientIdOf: 'me',
    onCall: true,
    colour: 'red',
    handlers: { 'notes.list': handlers['notes.list'], 'notes.archive': handlers['notes.list'] },
    lifecycle: {
      versions: { v1: { sunsetAt: 'next week', migrationUrl: 7 }, v7: {} },
      endpointDeprecations: [{ version: 'v3', method: 'GET', path: '/x', sunsetAt: '2026-01-01' }],
      headerStyle: 'loud',
    },
  } as unknown as VersionaryPluginOptions;
  await assert.rejects(
    async () => {
      await app.register(versionary, bad);
      await app.ready();
    },
    (error: Error & { code?: string }) => {
      for (const part of [
        'handlers lacks a function for operation(s): notes.pin',
        'handlers names operation(s) the bundle does not declare: notes.archive',
        'vendor must be a media-type token',
        'prefix must be a path such as "/api"',
        'clientIdOf must be a function',
        'onCall must be a function',
        'lifecycle.versions.v1.sunsetAt must be an ISO 8601 date',
        'lifecycle.versions.v1.deprecatedAt is required with a sunsetAt',
        'lifecycle.versions.v1.migrationUrl must be a string',
        'lifecycle.versions.v7: v7 has no code',
        'lifecycle.endpointDeprecations[0].version "v3" is not a version',
        'lifecycle.endpointDeprecations[0].deprecatedAt is required',
        'lifecycle.headerStyle must be "iso8601" or "rfc"',
        'unknown option(s): colour',
      ])
        assert.ok(error.message.includes(part), `missing "${part}" in:\n${error.message}`);
      return /14 problem\(s\)/.test(error.message);
    },
  );
});

test('forward replaces handlers: both, a bad upstream or a missing one fail at registration', async () => {
  const cases: Array<[Partial<VersionaryPluginOptions>, string[]]> = [
    [
      { handlers, forward: { upstreams: { v1: 'http://127.0.0.1:9001', v2: 'http://127.0.0.1:9002' } } },
      ['give handlers or forward, not both'],
    ],
    [
      { forward: { upstreams: { v1: 'ftp://x', v2: 'http://127.0.0.1:9002/api' } } },
      ['forward.upstreams.v1 must be an origin', 'forward.upstreams.v2 must be an origin'],
    ],
    [
      { forward: { upstreams: { v1: 'http://127.0.0.1:9001' }, timeoutMs: 0 } },
      ['forward.upstreams.v2 must be an origin', 'forward.timeoutMs must be an integer'],
    ],
  ];
  for (const [options, parts] of cases) {
    const app = Fastify();
    await assert.rejects(
      async () => {
        await app.register(versionary, { bundle, vendor: 'notes', ...options } as VersionaryPluginOptions);
        await app.ready();
      },
      (error: Error) => parts.every((part) => error.message.includes(part)) || assert.fail(error.message),
    );
  }
  const app = Fastify();
  await app.register(versionary, {
    bundle,
    vendor: 'notes',
    forward: { upstreams: { v1: 'http://127.0.0.1:1', v2: 'http://127.0.0.1:1' }, timeoutMs: 500 },
  });
  const res = await app.inject({ url: '/api/v2/notes' });
  assert.equal(res.statusCode, 502, 'nothing listens on port 1');
  assert.equal(res.json().code, 'UPSTREAM_UNREACHABLE');
  await app.close();
});

test('a lifecycle that breaks a policy rule fails at registration', async () => {
  const app = Fastify();
  const tooShort: LifecycleConfig = {
    versions: { v1: { deprecatedAt: '2026-01-01', sunsetAt: '2026-01-15', migrationUrl: 'https://notes.example/v2' } },
  };
  await assert.rejects(async () => {
    await app.register(versionary, {
      bundle,
      handlers,
      vendor: 'notes',
      lifecycle: tooShort,
      clock: createFixedClock(at('2026-01-02')),
    });
    await app.ready();
  }, /notice/i);
});

test("a removed version answers 410 before the app's own authentication, on routed and unrouted paths, and the call is still reported", async () => {
  const clock = createFixedClock(at('2027-02-01'));
  const usage: UsageEvent[] = [];
  const app = Fastify();
  await app.register(versionary, {
    bundle,
    handlers,
    vendor: 'notes',
    lifecycle,
    clock,
    onUsage: (call) => usage.push(call),
  });
  // The app's own authentication, registered after the plugin.
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization !== 'Bearer ok') await reply.code(401).send({ title: 'who are you' });
  });
  await app.ready();
  const routed = await app.inject({ url: '/api/v1/notes' });
  assert.equal(routed.statusCode, 410, 'no credentials needed to learn the version is gone');
  assert.equal(routed.json().code, 'VERSION_REMOVED');
  assert.ok(routed.headers.sunset);
  const unrouted = await app.inject({ url: '/api/v1/no-such-thing' });
  assert.equal(unrouted.statusCode, 410, 'a path with no route under the removed version');
  assert.deepEqual(
    usage.map((u) => u.endpoint),
    ['GET /notes'],
  );
  assert.equal(
    (await app.inject({ url: '/api/v1/openapi.json' })).statusCode,
    401,
    "the document is not gated: it stays readable for migration (here the app's own auth answers)",
  );
  assert.equal((await app.inject({ url: '/api/v2/notes', headers: { authorization: 'Bearer ok' } })).statusCode, 200);
});

test("openapi.document builds each version's document through the plugin's route, with the lifecycle's verdicts", async () => {
  const { app } = await build({
    openapi: {
      title: 'Notes',
      document: ({ version, title, basePath, verdict }) => ({
        openapi: '3.1.0',
        info: { title, version: version.name },
        'x-base': basePath,
        'x-pin-deprecated': verdict({ method: 'POST', path: '/notes/{id}/pin' }).deprecated,
      }),
    },
  });
  const v2 = (await app.inject({ url: '/api/v2/openapi.json' })).json();
  assert.deepEqual(v2, {
    openapi: '3.1.0',
    info: { title: 'Notes', version: 'v2' },
    'x-base': '/api/v2',
    'x-pin-deprecated': true,
  });
  await assert.rejects(
    build({ openapi: { title: 'Notes', document: 'no' as never } }),
    /openapi.document must be a function/,
  );
});
