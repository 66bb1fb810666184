import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { callsOf, revokeGrants, type Call } from '../support/conformance-traffic.ts';
import { createConformanceChecker, type OpenApiDocument } from '../support/openapi-conformance.ts';
import { adminHeaders, createTestApp, testEpoch, type TestApp } from '../support/test-app.ts';
import { examples, generousLimits, servedDocuments } from './served-documents.ts';

describe('every live response matches its served document (ajv)', () => {
  let t: TestApp;
  let readKey: string;
  const checker = createConformanceChecker();
  const seen: string[] = [];
  let requests = 0;

  const fetchDoc = async (url: string) =>
    (await t.app.inject({ url, headers: adminHeaders })).json() as OpenApiDocument;
  const fill = async (path: string): Promise<string> => {
    if (/^\/admin\/v1\/(exemption|extended-access)/.test(path))
      await revokeGrants(async (method, url) => (await t.app.inject({ method, url, headers: adminHeaders })).json());
    const user = await t.storage.users.create({
      values: { name: 'Grace', email: null, nickname: null, status: 'active' },
      at: new Date(testEpoch).toISOString(),
    });
    const post = await t.storage.posts.create({
      userId: user.id,
      title: 'A post',
      body: 'Text',
      at: new Date(testEpoch).toISOString(),
    });
    const key = (
      await t.app.inject({
        method: 'POST',
        url: '/admin/v1/api-keys',
        headers: adminHeaders,
        payload: { name: 'fixture', roles: ['read'] },
      })
    ).json() as { id: string };
    const created = async (url: string, payload: object) =>
      ((await t.app.inject({ method: 'POST', url, headers: adminHeaders, payload })).json() as { id: string }).id;
    if (path.startsWith('/admin/v1/clients/{id}'))
      path = path.replace('{id}', await created('/admin/v1/clients', examples['clients.create'] as object));
    if (path.startsWith('/admin/v1/approvals/{id}'))
      path = path.replace('{id}', await created('/admin/v1/approvals', examples['approvals.create'] as object));
    if (path.startsWith('/admin/v1/brownouts/{id}'))
      path = path.replace('{id}', await created('/admin/v1/brownouts', examples['brownouts.create'] as object));
    if (/^\/admin\/v1\/(exemptions|extended-access-grants)\/\{id\}/.test(path))
      path = path.replace(
        '{id}',
        await created('/admin/v1/extended-access-grants', examples['extendedAccess.grant'] as object),
      );
    // A request is asked from the portal, with a consumer's session: stored directly here, pending.
    if (/^\/admin\/v1\/(exemption|extended-access)-requests\/\{id\}/.test(path)) {
      const id = `exr_conformance_${++requests}`;
      await t.storage.extendedAccessRequests.insert({
        id,
        clientId: (examples['extendedAccess.grant'] as { clientId: string }).clientId,
        subject: { kind: 'version', version: 'v1' },
        reason: 'we need a quarter',
        requestedUntil: null,
        status: 'pending',
        createdAt: testEpoch,
        decidedAt: null,
        decidedBy: null,
        decisionNote: null,
        grantId: null,
      });
      path = path.replace('{id}', id);
    }
    return path
      .replace('{postId}', String(post!.id))
      .replace('/admin/v1/api-keys/{id}', `/admin/v1/api-keys/${key.id}`)
      .replace('{id}', String(user.id))
      .replace('{name}', 'v1');
  };
  const run = async (docUrl: string, call: Call): Promise<string[]> => {
    const res = await t.app.inject(call.request);
    seen.push(`${call.method} ${call.path} ${res.statusCode}`);
    // Fetched after the call: the document is built from the lifecycle as it stands.
    const problems = checker.check({ doc: await fetchDoc(docUrl), method: call.method, path: call.path, res });
    if (call.expect !== undefined && res.statusCode !== call.expect)
      problems.push(
        `${call.method} ${call.path} ${call.label}: expected ${call.expect}, got ${res.statusCode} ${res.body.slice(0, 200)}`,
      );
    if (call.label === 'replayed with its Idempotency-Key' && res.headers['idempotent-replayed'] !== 'true')
      problems.push(`${call.method} ${call.path}: a replay without Idempotent-Replayed`);
    return problems;
  };

  before(async () => {
    t = await createTestApp(generousLimits());
    // An grant names a stored client and a subject with a cap on extended access: v1 gets one
    // (as the walk's own deprecation call keeps it), and the grant's example a real client.
    const put = await t.app.inject({
      method: 'PUT',
      url: '/admin/v1/versions/v1/deprecation',
      headers: adminHeaders,
      payload: examples['versions.scheduleDeprecation'] as object,
    });
    assert.equal(put.statusCode, 200, put.body);
    const client = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/clients',
      headers: adminHeaders,
      payload: examples['clients.create'] as object,
    });
    (examples['extendedAccess.grant'] as { clientId: string }).clientId = (client.json() as { id: string }).id;
    readKey = (
      (
        await t.app.inject({
          method: 'POST',
          url: '/admin/v1/api-keys',
          headers: adminHeaders,
          payload: { name: 'reader', roles: ['read'] },
        })
      ).json() as { key: string }
    ).key;
  });
  after(() => t.close());

  for (const [file, url] of Object.entries(servedDocuments)) {
    // The management document has ~60 operations, each tried with valid and invalid requests: on a
    // loaded 2-core machine that passes two minutes. The timeout only stops a hang.
    it(`${file}: every operation, with valid and invalid requests`, { timeout: 360_000 }, async () => {
      const doc = await fetchDoc(url);
      const problems: string[] = [];
      let calls = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          for (const make of callsOf({ path, method, op, fill, keys: { read: readKey } })) {
            problems.push(...(await run(url, await make())));
            calls++;
          }
        }
      }
      assert.deepEqual(problems, []);
      assert.ok(calls >= Object.keys(doc.paths).length * 4, `${calls} calls`);
    });
  }

  it('conditional GETs answer 304 as documented, and replays carry Idempotent-Replayed', async () => {
    for (const version of ['v1', 'v2']) {
      const doc = await fetchDoc(`/api/${version}/openapi.json`);
      const path = await fill(`/api/${version}/users/{id}`);
      const first = await t.app.inject({ url: path, headers: adminHeaders });
      const notModified = await t.app.inject({
        url: path,
        headers: { ...adminHeaders, 'if-none-match': String(first.headers.etag) },
      });
      assert.equal(notModified.statusCode, 304);
      assert.deepEqual(checker.check({ doc, method: 'GET', path: `/api/${version}/users/{id}`, res: notModified }), []);
    }
    const doc = await fetchDoc('/api/v2/openapi.json');
    const create = {
      method: 'POST' as const,
      url: '/api/v2/users',
      headers: { ...adminHeaders, 'idempotency-key': 'k-304' },
      payload: { name: 'Once' },
    };
    await t.app.inject(create);
    const replay = await t.app.inject(create);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(checker.check({ doc, method: 'POST', path: '/api/v2/users', res: replay }), []);
  });
});

describe('limits and removal answer as documented', () => {
  it('429 with Retry-After and the RateLimit fields, on every document', async () => {
    const t = await createTestApp({
      files: { '/c.json': JSON.stringify({ rateLimit: { max: 2, windowSeconds: 60 } }) },
      env: { VERSIONARY_CONFIG: '/c.json' },
    });
    const checker = createConformanceChecker();
    for (const [path, docUrl] of [
      ['/api/v1/users', '/api/v1/openapi.json'],
      ['/api/v2/users', '/api/v2/openapi.json'],
      ['/admin/v1/versions', '/admin/v1/openapi.json'],
    ] as const) {
      const doc = (await t.app.inject({ url: docUrl, headers: adminHeaders })).json() as OpenApiDocument;
      let res = await t.app.inject({ url: path, headers: adminHeaders });
      for (let i = 0; i < 3 && res.statusCode !== 429; i++)
        res = await t.app.inject({ url: path, headers: adminHeaders });
      assert.equal(res.statusCode, 429);
      assert.deepEqual(checker.check({ doc, method: 'GET', path, res }), []);
      t.clock.advance(61_000);
    }
    await t.close();
  });

  it('in the last 30 days before the sunset, responses carry the documented Warning', async () => {
    const t = await createTestApp(generousLimits());
    const checker = createConformanceChecker();
    const scheduled = await t.app.inject({
      method: 'PUT',
      url: '/admin/v1/versions/v1/deprecation',
      headers: adminHeaders,
      payload: { noticeMonths: 6 },
    });
    assert.equal(scheduled.statusCode, 200, scheduled.body);
    t.clock.advance(170 * 86_400_000);
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as OpenApiDocument;
    const res = await t.app.inject({ url: '/api/v1/users', headers: adminHeaders });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers.warning), /^299 - "/);
    assert.deepEqual(checker.check({ doc, method: 'GET', path: '/api/v1/users', res }), []);
    await t.close();
  });

  it('a version past its sunset answers its documented 410 on every operation but its document', async () => {
    const t = await createTestApp(generousLimits());
    const checker = createConformanceChecker();
    const scheduled = await t.app.inject({
      method: 'PUT',
      url: '/admin/v1/versions/v1/deprecation',
      headers: adminHeaders,
      payload: { noticeMonths: 6 },
    });
    assert.equal(scheduled.statusCode, 200, scheduled.body);
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as OpenApiDocument;
    t.clock.advance(200 * 86_400_000);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        // The version's own document stays readable after removal, for migration.
        if ((item[method] as { security?: unknown[] }).security?.length === 0) continue;
        const url = path.replace('{id}', '1').replace('{postId}', '1');
        const res = await t.app.inject({
          method: method.toUpperCase() as InjectOptions['method'],
          url,
          headers: adminHeaders,
          ...(item[method]!.requestBody ? { payload: {} } : {}),
        });
        assert.equal(res.statusCode, 410, `${method} ${path}`);
        assert.deepEqual(checker.check({ doc, method: method.toUpperCase(), path, res }), []);
      }
    }
    await t.close();
  });
});
