import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { callsOf, revokeGrants, type Call } from '../support/conformance-traffic.ts';
import { createConformanceChecker, type OpenApiDocument } from '../support/openapi-conformance.ts';
import { startTestService, type StartedService } from '../support/started-service.ts';
import { testAdminKey, testEpoch } from '../support/test-app.ts';
import { examples, servedDocuments } from './served-documents.ts';

type Answer = { statusCode: number; headers: Record<string, string | string[] | undefined>; body: string };

const day = 86_400_000;
const admin = { authorization: `Bearer ${testAdminKey}` };
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The conformance traffic of `live-conformance.test.ts`, sent over a socket to the service as
 * `node dist/server.js` composes it, with a deprecated version (v1), a deprecated endpoint, a
 * deprecated field and a deprecated query parameter (v2): every answer, headers included, must be
 * what the document served at that moment declares.
 */
describe('the conformance traffic, over HTTP, against the served documents (headers included)', () => {
  let service: StartedService;
  let readKey: string;
  const checker = createConformanceChecker();
  const clock = { now: () => testEpoch };

  /** One request as a client sends it; `rawHeaders` keeps repeated headers repeated. */
  const send = (options: {
    method?: string;
    url: string;
    headers?: Record<string, string> | string[];
    payload?: string;
  }): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${service.base}${options.url}`, {
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ statusCode: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end(options.payload);
    });
  const json = async (method: string, url: string, payload: unknown): Promise<Record<string, unknown>> => {
    const res = await send({
      method,
      url,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  const fetchDoc = async (url: string) => JSON.parse((await send({ url, headers: admin })).body) as OpenApiDocument;
  const docFor = (path: string) =>
    path.startsWith('/admin/')
      ? '/admin/v1/openapi.json'
      : `/api/${path.startsWith('/api/v1') ? 'v1' : 'v2'}/openapi.json`;
  const check = async (path: string, method: string, res: Answer): Promise<string[]> =>
    checker.check({ doc: await fetchDoc(docFor(path)), method, path, res });

  // Resources made through the APIs themselves: the service's storage is its own.
  const fill = async (path: string): Promise<string> => {
    if (/^\/admin\/v1\/(exemption|extended-access)/.test(path))
      await revokeGrants(async (method, url) => JSON.parse((await send({ method, url, headers: admin })).body));
    const user = await json('POST', '/api/v2/users', { name: 'Grace' });
    const post = await json('POST', `/api/v2/users/${String(user.id)}/posts`, { title: 'A post', body: 'Text' });
    const key = await json('POST', '/admin/v1/api-keys', { name: 'fixture', roles: ['read'] });
    const created = async (url: string, payload: unknown) => String((await json('POST', url, payload)).id);
    if (path.startsWith('/admin/v1/clients/{id}'))
      path = path.replace('{id}', await created('/admin/v1/clients', examples['clients.create']));
    if (path.startsWith('/admin/v1/approvals/{id}'))
      path = path.replace('{id}', await created('/admin/v1/approvals', examples['approvals.create']));
    if (path.startsWith('/admin/v1/brownouts/{id}'))
      path = path.replace('{id}', await created('/admin/v1/brownouts', examples['brownouts.create']));
    if (/^\/admin\/v1\/(exemptions|extended-access-grants)\/\{id\}/.test(path))
      path = path.replace('{id}', await created('/admin/v1/extended-access-grants', examples['extendedAccess.grant']));
    // A consumer asks for a request from the portal: none here, so the documented 404 is checked.
    if (/^\/admin\/v1\/(exemption|extended-access)-requests\/\{id\}/.test(path))
      path = path.replace('{id}', 'exr_none');
    return path
      .replace('{postId}', String(post.id))
      .replace('/admin/v1/api-keys/{id}', `/admin/v1/api-keys/${String(key.id)}`)
      .replace('{id}', String(user.id))
      .replace('{name}', 'v1');
  };
  const sendCall = (call: Call): Promise<Answer> => {
    const r: InjectOptions = call.request;
    return send({
      method: call.method,
      url: String(r.url),
      headers: r.headers as Record<string, string>,
      ...(r.payload !== undefined ? { payload: String(r.payload) } : {}),
    });
  };

  before(async () => {
    service = await startTestService({
      clock,
      file: {
        rateLimit: { max: 1_000_000, windowSeconds: 60 },
        fieldDeprecations: [
          {
            version: 'v2',
            resource: 'User',
            field: 'nickname',
            deprecatedAt: iso(testEpoch - day),
            sunsetAt: iso(testEpoch + 200 * day),
            replacement: 'displayName',
          },
        ],
        parameterDeprecations: [
          {
            version: 'v2',
            method: 'GET',
            path: '/users',
            parameter: 'fields',
            deprecatedAt: iso(testEpoch - day),
            sunsetAt: iso(testEpoch + 200 * day),
          },
        ],
      },
    });
    await json('PUT', '/admin/v1/versions/v1/deprecation', examples['versions.scheduleDeprecation']);
    // An endpoint of the current version, deprecated on its own.
    await json('POST', '/admin/v1/deprecations', {
      version: 'v2',
      method: 'GET',
      path: '/users/{id}/posts',
      noticeMonths: 12,
    });
    (examples['extendedAccess.grant'] as { clientId: string }).clientId = String(
      (await json('POST', '/admin/v1/clients', examples['clients.create'])).id,
    );
    readKey = String((await json('POST', '/admin/v1/api-keys', { name: 'reader', roles: ['read'] })).key);
  });
  after(async () => {
    await service.stop();
  });

  for (const [file, url] of Object.entries(servedDocuments)) {
    it(`${file}: every operation, with valid and invalid requests`, { timeout: 360_000 }, async () => {
      const doc = await fetchDoc(url);
      const problems: string[] = [];
      for (const [path, item] of Object.entries(doc.paths))
        for (const [method, op] of Object.entries(item))
          for (const make of callsOf({ path, method, op, fill, keys: { read: readKey } })) {
            const call = await make();
            problems.push(...(await check(path, call.method, await sendCall(call))));
          }
      assert.deepEqual(problems, []);
    });
  }

  it('a deprecated version or endpoint: the 400s answered before its lifecycle step are as documented', async () => {
    const problems: string[] = [];
    const host = () => ['host', `127.0.0.1:${service.port}`];
    for (const [path, url] of [
      ['/api/v1/users', '/api/v1/users'],
      ['/api/v2/users/{id}/posts', await fill('/api/v2/users/{id}/posts')],
    ] as const) {
      const accept = await send({ url, headers: { ...admin, accept: 'application/json; version=1' } });
      const other = path.startsWith('/api/v1') ? 'application/json; version=2' : 'application/json; version=1';
      const conflicting = await send({ url, headers: { ...admin, accept: other } });
      // Raw headers: Node's client then adds no Host of its own.
      const repeated = await send({
        url,
        headers: [...host(), 'authorization', admin.authorization, 'authorization', admin.authorization],
      });
      const repeatedKey = await send({ url, headers: [...host(), 'x-api-key', readKey, 'x-api-key', readKey] });
      const anonymous = await send({ url });
      const unacceptable = await send({ url, headers: { ...admin, accept: 'text/html' } });
      const early = { conflicting, repeated, repeatedKey, anonymous, unacceptable };
      assert.deepEqual(Object.fromEntries(Object.entries(early).map(([name, res]) => [name, res.statusCode])), {
        conflicting: 400,
        repeated: 400,
        repeatedKey: 400,
        anonymous: 401,
        unacceptable: 406,
      });
      // The spec: "Responses of a deprecated version carry these headers", the early ones too.
      for (const [name, res] of Object.entries(early))
        for (const header of ['deprecation', 'sunset', 'link'])
          if (res.headers[header] === undefined) problems.push(`${path} ${name} (${res.statusCode}): no ${header}`);
      for (const res of [accept, ...Object.values(early)]) problems.push(...(await check(path, 'GET', res)));
      const doc = await fetchDoc(docFor(path));
      const responses = (doc.paths[path]?.get?.responses ?? {}) as Record<
        string,
        { headers?: Record<string, { required?: boolean }> }
      >;
      for (const [status, response] of Object.entries(responses))
        for (const header of ['Deprecation', 'Sunset'])
          if (response.headers?.[header]?.required !== true)
            problems.push(`${path} GET ${status}: ${header} is not declared required`);
    }
    assert.deepEqual(problems, []);
  });

  it('a deprecated field and query parameter: the answers that use them are as documented', async () => {
    const problems: string[] = [];
    const headers = { ...admin, 'content-type': 'application/json' };
    const created = await send({
      method: 'POST',
      url: '/api/v2/users',
      headers,
      payload: JSON.stringify({ name: 'Ada', nickname: 'ada' }),
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.ok(created.headers.deprecation, 'a body with the deprecated field is told so');
    problems.push(...(await check('/api/v2/users', 'POST', created)));
    const id = String((JSON.parse(created.body) as { id: number }).id);
    const patched = await send({
      method: 'PATCH',
      url: `/api/v2/users/${id}`,
      headers: { ...headers, 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ nickname: 'ada2' }),
    });
    problems.push(...(await check('/api/v2/users/{id}', 'PATCH', patched)));
    for (const query of ['fields=id', 'fields=nope', 'fields=id,nickname', 'nickname=ada'])
      problems.push(
        ...(await check('/api/v2/users', 'GET', await send({ url: `/api/v2/users?${query}`, headers: admin }))),
      );
    assert.deepEqual(problems, []);
  });

  it('the management document lists itself', async () => {
    const path = '/admin/v1/openapi.json';
    const res = await send({ url: path, headers: admin });
    assert.deepEqual(checker.check({ doc: await fetchDoc(path), method: 'GET', path, res }), []);
  });

  it('every `limit` is an integer, and the schemes declare the roles operations name', async () => {
    const problems: string[] = [];
    for (const url of Object.values(servedDocuments)) {
      const doc = (await fetchDoc(url)) as OpenApiDocument & {
        components: { securitySchemes: Record<string, { flows?: Record<string, { scopes?: object }> }> };
      };
      for (const [path, item] of Object.entries(doc.paths))
        for (const [method, op] of Object.entries(item)) {
          const limit = op.parameters?.find((p) => p.in === 'query' && p.name === 'limit') as
            { schema: { type?: string } } | undefined;
          if (limit && limit.schema.type !== 'integer')
            problems.push(`${method} ${path}: limit is ${limit.schema.type}`);
          for (const requirement of (op as { security?: Array<Record<string, string[]>> }).security ?? [])
            for (const [scheme, roles] of Object.entries(requirement))
              for (const role of roles) {
                const flows = Object.values(doc.components.securitySchemes[scheme]?.flows ?? {});
                if (!flows.some((flow) => flow.scopes && role in flow.scopes))
                  problems.push(`${method} ${path}: ${scheme} names "${role}", which the scheme does not declare`);
              }
        }
    }
    assert.deepEqual(problems.slice(0, 10), []);
  });
});
