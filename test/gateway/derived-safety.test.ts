import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { derivedFastapiGateway } from '../support/derived-fastapi.ts';
import { gatewayAdminKey } from '../support/gateway.ts';

interface Problem {
  code: string;
  detail: string;
  errors?: Array<{ pointer: string; detail: string }>;
}

describe('a derived version never hands an old client the newest data, and checks old requests in their own terms', () => {
  const { gateway, upstream } = derivedFastapiGateway();
  const headers = { authorization: `Bearer ${gatewayAdminKey}` };
  const json = { ...headers, 'content-type': 'application/json' };
  /** How many calls the upstream has received so far. */
  const calls = async () => ((await (await fetch(`${upstream.url}/_received`)).json()) as unknown[]).length;
  const post = (body: string, type = 'application/json') =>
    fetch(`${gateway.base}/api/v1/users`, { method: 'POST', headers: { ...headers, 'content-type': type }, body });

  it('drops members the upstream sends that v1 does not declare, nested ones and list records included', async () => {
    const v1 = await fetch(`${gateway.base}/api/v1/users/3`, { headers });
    assert.equal(v1.status, 200);
    assert.deepEqual(await v1.json(), { id: 3, name: 'Grace', address: { city: 'Paris' } });
    // The upstream gzips the list when asked: the gateway asks v1's unencoded, to translate it.
    const gzipped = { ...headers, 'accept-encoding': 'gzip' };
    const list = (await (await fetch(`${gateway.base}/api/v1/users`, { headers: gzipped })).json()) as unknown[];
    assert.deepEqual(list[2], { id: 3, name: 'Grace', address: { city: 'Paris' } });
    const v2 = (await (await fetch(`${gateway.base}/api/v2/users/3`, { headers })).json()) as Record<string, unknown>;
    assert.deepEqual(v2._internal, { row: 17 }, "v2's answer is the upstream's own");
    // A recursive schema, through a nullable anyOf, as deep as the body goes.
    const nodes = await fetch(`${gateway.base}/api/v1/nodes?depth=3`, { headers });
    assert.deepEqual(await nodes.json(), { id: 1, child: { id: 2, child: { id: 3, child: null } } });
  });

  it('answers a 502 problem naming the record and member that does not fit, never a partial list', async () => {
    const response = await fetch(`${gateway.base}/api/v1/users?broken=1`, { headers });
    assert.equal(response.status, 502);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = (await response.json()) as Problem;
    assert.equal(problem.code, 'UPSTREAM_UNTRANSLATABLE');
    assert.match(problem.detail, /GET \/users cannot be translated to v1: record 1 \(\/1\/name\) does not match v2's/);
    // The log line is written as the answer goes out: wait for it a moment.
    const logged = /"why":"record 1 \(\/1\/name\)[^\n]*not translatable/;
    for (let i = 0; i < 40 && !logged.test(gateway.output()); i++) await new Promise((r) => setTimeout(r, 50));
    assert.match(gateway.output(), logged, 'one log line says why');
  });

  it('answers a 502 problem for an answer nested deeper than 128 levels', async () => {
    const response = await fetch(`${gateway.base}/api/v1/nodes?depth=300`, { headers });
    assert.equal(response.status, 502);
    const problem = (await response.json()) as Problem;
    assert.equal(problem.code, 'UPSTREAM_UNTRANSLATABLE');
    assert.match(problem.detail, /nested deeper than 128 levels/);
  });

  it('refuses a request body nested too deep (400) or over the body limit (413), and the upstream never sees it', async () => {
    const before = await calls();
    const deep = await post(`{"name":"Ada","status":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    assert.equal(deep.status, 400);
    const problem = (await deep.json()) as Problem;
    assert.equal(problem.code, 'MALFORMED_REQUEST');
    assert.match(problem.detail, /nested deeper than 128 levels/);
    const large = await post(JSON.stringify({ name: 'Ada', padding: 'x'.repeat(2 * 1024 * 1024) }));
    assert.equal(large.status, 413);
    assert.equal(((await large.json()) as Problem).code, 'PAYLOAD_TOO_LARGE');
    assert.equal(await calls(), before);
  });

  it("refuses an invalid v1 request in v1's terms, naming the member, before any migration", async () => {
    const before = await calls();
    const cases: Array<[string, string, RegExp]> = [
      [JSON.stringify({ name: 'Ada', email: 'ada@example.com' }), '/body/email', /unknown field "email"/],
      [JSON.stringify({ name: 'A'.repeat(30) }), '/body/name', /20 characters/],
      [JSON.stringify({ name: 'Ada', status: 'pending' }), '/body/status', /must be one of active, inactive/],
      [JSON.stringify({ status: 'active' }), '/body/name', /"name" is required/],
      ['{"name":"Ada","__proto__":{"admin":true}}', '/body/__proto__', /./],
    ];
    for (const [body, pointer, detail] of cases) {
      const response = await post(body);
      assert.equal(response.status, 400, body);
      const problem = (await response.json()) as Problem;
      assert.equal(problem.code, 'VALIDATION_FAILED', body);
      const error = problem.errors?.find((e) => e.pointer === pointer);
      assert.ok(error, `${body}: ${JSON.stringify(problem.errors)}`);
      assert.match(error.detail, detail);
    }
    const encoded = await fetch(`${gateway.base}/api/v1/users`, {
      method: 'POST',
      headers: { ...json, 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ name: 'Ada' })),
    });
    assert.equal(encoded.status, 415);
    const text = await post('name=Ada', 'application/x-www-form-urlencoded');
    assert.equal(text.status, 415);
    assert.equal(((await text.json()) as Problem).code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal(await calls(), before, 'no invalid request reached the upstream');
  });

  it("refuses path and query parameters that break v1's document, and a missing required body, never forwarding them", async () => {
    const before = await calls();
    const get = (target: string) => fetch(`${gateway.base}/api/v1${target}`, { headers });
    // A path segment that fits no value of its parameter names nothing: the spec's 404 for an invalid id.
    for (const target of ['/users/abc', '/users/0', '/users/1.5']) {
      const response = await get(target);
      assert.equal(response.status, 404, target);
      const problem = (await response.json()) as Problem;
      assert.equal(problem.code, 'NOT_FOUND', target);
      assert.ok(
        problem.errors?.some((e) => e.pointer === '/path/user_id'),
        `${target}: ${JSON.stringify(problem)}`,
      );
    }
    const queries: Array<[string, string, RegExp]> = [
      ['/users?limit=abc', '/query/limit', /integer/],
      ['/users?limit=05', '/query/limit', /integer/],
      ['/users?limit=500', '/query/limit', /<= 100/],
      ['/users?status=pending', '/query/status', /./],
      ['/users?email=ada%40example.com', '/query/email', /unknown field "email"/],
      ['/nodes?depth=-1', '/query/depth', />= 0/],
    ];
    for (const [target, pointer, detail] of queries) {
      const response = await get(target);
      assert.equal(response.status, 400, target);
      const problem = (await response.json()) as Problem;
      assert.equal(problem.code, 'VALIDATION_FAILED', target);
      const error = problem.errors?.find((e) => e.pointer === pointer);
      assert.ok(error, `${target}: ${JSON.stringify(problem.errors)}`);
      assert.match(error.detail, detail, target);
    }
    const empty = await fetch(`${gateway.base}/api/v1/users`, { method: 'POST', headers });
    assert.equal(empty.status, 400);
    const problem = (await empty.json()) as Problem;
    assert.equal(problem.code, 'VALIDATION_FAILED');
    assert.match(problem.detail, /v1's POST \/users requires a request body: send a UserInput as application\/json/);
    assert.deepEqual(problem.errors, [{ pointer: '/body', detail: 'is required' }]);
    const patch = await fetch(`${gateway.base}/api/v1/users/1`, { method: 'PATCH', headers: json, body: '' });
    assert.equal(patch.status, 400);
    assert.equal(await calls(), before, 'no invalid call reached the upstream');
    // Valid parameters pass, the query as it was sent.
    const listed = await get('/users?limit=10&status=active&status=');
    assert.equal(listed.status, 400, 'a repeated parameter that is no list is refused');
    const valid = await get('/users?limit=10&status=active');
    assert.equal(valid.status, 200);
    const received = (await (await fetch(`${upstream.url}/_received`)).json()) as Array<{ target: string }>;
    assert.equal(received[received.length - 1]!.target, '/api/v2/users?limit=10&status=active');
  });

  it('forwards a valid v1 request migrated up, and answers in v1', async () => {
    const response = await fetch(`${gateway.base}/api/v1/users`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Ada', status: 'active' }),
    });
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), { id: 9, name: 'Ada', address: null });
    const received = (await (await fetch(`${upstream.url}/_received`)).json()) as Array<{
      method: string;
      target: string;
      body: string | null;
    }>;
    const last = received[received.length - 1]!;
    assert.equal(`${last.method} ${last.target}`, 'POST /api/v2/users');
    assert.deepEqual(JSON.parse(last.body!), { name: 'Ada', status: 'active' });
  });
});
