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
