import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { LightMyRequestResponse } from 'fastify';
import { assertProblem } from '../support/assertions.ts';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';

const adminKey = 'test-admin-key-0123456789';

/** A fetch answer shaped as `inject()` gives one, for the problem assertions. */
async function asInjected(res: Response): Promise<LightMyRequestResponse> {
  return {
    statusCode: res.status,
    headers: Object.fromEntries(res.headers),
    body: await res.text(),
  } as LightMyRequestResponse;
}

async function connect(base: string, key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/admin/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const textOf = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>)[0]!.text;

describe('the MCP endpoint over HTTP (/admin/mcp)', () => {
  let service: StartedService;
  let consumerKey: string;
  let clientId: string;
  before(async () => {
    service = await startTestService({ file: { rateLimit: { max: 100_000, windowSeconds: 60 } } });
    const admin = adminCaller(service);
    clientId = (JSON.parse((await admin('POST', '/admin/v1/clients', { name: 'Acme' })).body) as { id: string }).id;
    const created = await admin('POST', '/admin/v1/api-keys', { name: 'acme', roles: ['read'], clientId });
    consumerKey = (JSON.parse(created.body) as { key: string }).key;
  });
  after(() => service.stop());

  it('answers 401 as a problem without credentials, and with a bad key', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    for (const headers of [{}, { authorization: 'Bearer vk_0123456789abcdef.not-a-key' }] as Array<
      Record<string, string>
    >) {
      const res = await fetch(`${service.base}/admin/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
      assertProblem(await asInjected(res), { status: 401, code: 'UNAUTHENTICATED' });
      assert.match(String(res.headers.get('www-authenticate')), /^Bearer realm="versionary"/);
    }
  });

  it('answers GET and DELETE with 405 and Allow: POST (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${service.base}/admin/mcp`, {
        method,
        headers: { authorization: `Bearer ${consumerKey}` },
      });
      assertProblem(await asInjected(res), { status: 405, code: 'METHOD_NOT_ALLOWED' });
      assert.equal(res.headers.get('allow'), 'POST');
    }
  });

  it('answers with the headers of every answer: request id, nosniff, no-store, rate limit', async () => {
    const res = await fetch(`${service.base}/admin/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${consumerKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-request-id': 'mcp-trace-1',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^application\/json/);
    assert.equal(res.headers.get('x-request-id'), 'mcp-trace-1');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.ok(res.headers.get('ratelimit-policy') ?? res.headers.get('ratelimit'), 'rate-limit headers');
    const answer = (await res.json()) as { result: { tools: unknown[] } };
    assert.equal(answer.result.tools.length, 4, 'stateless: a tools/list without initialize is answered');
  });

  it('initializes and lists the four tools with their input schemas, for a consumer key', async () => {
    const client = await connect(service.base, consumerKey);
    try {
      assert.equal(client.getServerVersion()?.name, 'versionary');
      assert.ok(client.getServerCapabilities()?.tools, 'the server offers tools');
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['deprecations', 'migration_guide', 'usage', 'what_breaks']);
      for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', `${tool.name} takes an object`);
      const guide = tools.find((t) => t.name === 'migration_guide')!;
      assert.deepEqual(guide.inputSchema.required, ['from']);
    } finally {
      await client.close();
    }
  });

  it('runs tools for the caller: a consumer is refused usage, an admin gets it', async () => {
    const consumer = await connect(service.base, consumerKey);
    const admin = await connect(service.base, adminKey);
    try {
      const refused = await consumer.callTool({ name: 'usage', arguments: { version: 'v1' } });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /admin key/);
      const usage = await admin.callTool({ name: 'usage', arguments: { version: 'v1' } });
      assert.equal(usage.isError, undefined, textOf(usage));
      const guide = await consumer.callTool({ name: 'migration_guide', arguments: { from: 'v1' } });
      assert.match(textOf(guide), /^# Migrating from v1 to v2/m);
      const json = await consumer.callTool({
        name: 'migration_guide',
        arguments: { from: 'v1', to: 'v2', format: 'json' },
      });
      assert.equal(json.isError, undefined, textOf(json));
      const structured = json.structuredContent as { from: string; to: string };
      assert.deepEqual([structured.from, structured.to], ['v1', 'v2']);
      assert.deepEqual(JSON.parse(textOf(json)), structured);
      const bad = await consumer.callTool({ name: 'what_breaks', arguments: { from: 7 } });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /Invalid input for what_breaks/);
    } finally {
      await Promise.all([consumer.close(), admin.close()]);
    }
  });

  it('refuses a body that is not JSON (415) and an Accept without event streams (406) as problems', async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${service.base}/admin/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${consumerKey}`, ...headers },
        body,
      }).then(asInjected);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const both = 'application/json, text/event-stream';
    assertProblem(await post({ 'content-type': 'text/plain', accept: both }, list), {
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    assertProblem(await post({ 'content-type': 'application/json', accept: 'application/json' }, list), {
      status: 406,
      code: 'NOT_ACCEPTABLE',
    });
    assertProblem(await post({ 'content-type': 'application/json' }, list), { status: 406, code: 'NOT_ACCEPTABLE' });
  });

  it('answers tools/call with bad params as -32602 in one sentence, and names a refused __proto__ key', async () => {
    const post = (body: string) =>
      fetch(`${service.base}/admin/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${consumerKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
    const calls = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'deprecations', arguments: 'x' } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'deprecations', arguments: null } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } },
    ];
    for (const message of calls) {
      const res = await post(JSON.stringify(message));
      assert.equal(res.status, 200);
      const answer = (await res.json()) as { id: number; error?: { code: number; message: string } };
      assert.equal(answer.id, message.id);
      assert.equal(answer.error?.code, -32602, JSON.stringify(answer));
      assert.doesNotMatch(answer.error.message, /\n|"code"|invalid_type/, 'one sentence, not the issue list');
      assert.match(answer.error.message, /params/);
    }
    const poisoned = await post(
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"deprecations","arguments":{"__proto__":{"x":1}}}}',
    ).then(asInjected);
    assertProblem(poisoned, { status: 400 });
    const detail = (JSON.parse(poisoned.body) as { detail: string }).detail;
    assert.match(detail, /"__proto__"/);
    assert.match(detail, /\/body\/params\/arguments\/__proto__/);
    assert.doesNotMatch(detail, /not valid JSON/);
  });

  it('answers a JSON-RPC message that is not JSON as a 400 problem, never a 5xx', async () => {
    const res = await fetch(`${service.base}/admin/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${consumerKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":',
    });
    assertProblem(await asInjected(res), { status: 400 });
  });
});

describe("the MCP deprecations tool names the client's minimum version", () => {
  let service: StartedService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.stop());

  it('with the versions it retires, for the client itself and for an admin naming it', async () => {
    const admin = adminCaller(service);
    const id = (JSON.parse((await admin('POST', '/admin/v1/clients', { name: 'Moved' })).body) as { id: string }).id;
    const created = await admin('POST', '/admin/v1/api-keys', { name: 'moved', roles: ['read'], clientId: id });
    const key = (JSON.parse(created.body) as { key: string }).key;
    assert.equal((await admin('PATCH', `/admin/v1/clients/${id}`, { minimumVersion: 'v2' })).statusCode, 200);
    for (const [who, args] of [
      [key, {}],
      [adminKey, { clientId: id }],
    ] as const) {
      const client = await connect(service.base, who);
      try {
        const result = await client.callTool({ name: 'deprecations', arguments: args });
        const data = result.structuredContent as { minimumVersion: string | null; retiredVersions: string[] };
        assert.equal(data.minimumVersion, 'v2');
        assert.deepEqual(data.retiredVersions, ['v1']);
      } finally {
        await client.close();
      }
    }
  });
});
