import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, spawnService, type ServiceProcess } from '../support/service-process.ts';
import { spawnStdioPeer, type RpcAnswer, type StdioPeer } from '../support/cli-stdio.ts';

const adminKey = `mcp-test-admin-${randomBytes(8).toString('hex')}`;

interface ToolResult {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const resultOf = (answer: RpcAnswer) => {
  assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  return answer.result as unknown as ToolResult;
};

/** Initialize as an MCP client does: `initialize`, then `notifications/initialized`. */
async function initialize(peer: StdioPeer): Promise<Record<string, unknown>> {
  const answer = await peer.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'mcp-stdio-test', version: '1.0.0' },
  });
  assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  peer.notify('notifications/initialized');
  return answer.result!;
}

async function call(peer: StdioPeer, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return resultOf(await peer.request('tools/call', { name, arguments: args }));
}

describe('versionary mcp on stdio, bridging to the reference service', () => {
  let service: ServiceProcess;
  let cleanup = () => {};
  const clients: Record<'acme' | 'beta', { id: string; key: string }> = {} as never;
  const admin = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${service.base}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
    assert.equal(res.status, 201, `${path}: ${await res.clone().text()}`);
    return (await res.json()) as Record<string, string>;
  };

  before(async () => {
    // v1 deprecated as the service does by default, and a field of v2 that Acme never sends.
    const dir = mkdtempSync(join(tmpdir(), 'versionary-mcp-'));
    const config = join(dir, 'config.json');
    const day = 86_400_000;
    writeFileSync(
      config,
      JSON.stringify({
        fieldDeprecations: [
          {
            version: 'v2',
            resource: 'User',
            field: 'nickname',
            deprecatedAt: new Date(Date.now() - day).toISOString(),
            sunsetAt: new Date(Date.now() + 400 * day).toISOString(),
            replacement: 'displayName',
          },
        ],
      }),
    );
    cleanup = () => rmSync(dir, { recursive: true, force: true });
    service = await spawnService({
      env: { DATABASE_URL: 'sqlite::memory:', VERSIONARY_ADMIN_KEY: adminKey, VERSIONARY_CONFIG: config },
    });
    for (const name of ['acme', 'beta'] as const) {
      const { id } = await post('/admin/v1/clients', { name: name === 'acme' ? 'Acme' : 'Beta' });
      const roles = name === 'acme' ? ['read'] : ['read', 'write'];
      const { key } = await post('/admin/v1/api-keys', { name, roles, clientId: id });
      clients[name] = { id: id!, key: key! };
    }
    // Acme calls the deprecated v1 three times, Beta twice: each key must see only its own.
    for (const [name, times] of [
      ['acme', 3],
      ['beta', 2],
    ] as const)
      for (let i = 0; i < times; i++) {
        const res = await fetch(`${service.base}/api/v1/users`, {
          headers: { authorization: `Bearer ${clients[name].key}` },
        });
        assert.equal(res.status, 200);
        await res.arrayBuffer();
      }
    // Beta also sends the deprecated field of v2, once.
    const created = await fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clients.beta.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bea', nickname: 'bee' }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    await created.arrayBuffer();
  });
  after(async () => {
    await service.stop();
    cleanup();
  });

  it('a consumer key (from VERSIONARY_KEY) lists the tools and sees only its own client', async () => {
    const peer = spawnStdioPeer(['mcp', '--server', service.base], { VERSIONARY_KEY: clients.acme.key });
    try {
      const init = await initialize(peer);
      assert.deepEqual((init.serverInfo as { name: string }).name, 'versionary');
      assert.ok((init.capabilities as { tools?: object }).tools, 'the bridge offers tools');

      const listed = (await peer.request('tools/list')).result as {
        tools: Array<{ name: string; inputSchema: object }>;
      };
      assert.deepEqual(listed.tools.map((t) => t.name).sort(), [
        'deprecations',
        'migration_guide',
        'usage',
        'what_breaks',
      ]);
      for (const tool of listed.tools) assert.equal((tool.inputSchema as { type: string }).type, 'object');

      const deprecations = await call(peer, 'deprecations');
      assert.equal(deprecations.isError, undefined, deprecations.content[0]?.text);
      const mine = deprecations.structuredContent as {
        clientId: string;
        deprecations: Array<{
          kind: string;
          name: string;
          replacement: string;
          migrationUrl: string;
          sunsetAt: string;
          usage: { calls: number; clients: number };
        }>;
      };
      assert.equal(mine.clientId, clients.acme.id);
      const v1 = mine.deprecations.find((d) => d.kind === 'version' && d.name === 'v1');
      assert.ok(v1, `v1 among ${deprecations.content[0]!.text}`);
      assert.deepEqual([v1.usage.calls, v1.usage.clients], [3, 1], 'only Acme’s own calls');
      assert.equal(v1.replacement, 'v2');
      assert.equal(v1.migrationUrl, '/api/versions/v1/migration-guide');
      assert.match(v1.sunsetAt, /^\d{4}-\d\d-\d\dT/);
      assert.equal(JSON.parse(deprecations.content[0]!.text).clientId, clients.acme.id, 'the text is the same data');

      const everything = (await call(peer, 'deprecations', { all: true })).structuredContent as typeof mine;
      assert.ok(everything.deprecations.length >= mine.deprecations.length);
      assert.ok(!mine.deprecations.some((d) => d.name === 'User.nickname'), 'never called: not listed');
      const nickname = everything.deprecations.find((d) => d.name === 'User.nickname');
      assert.ok(nickname, 'all: true lists what Acme never called too');
      assert.deepEqual([nickname.kind, nickname.replacement, nickname.usage.calls], ['field', 'User.displayName', 0]);

      const breaks = await call(peer, 'what_breaks', { from: 'v1', to: 'v2' });
      const broken = breaks.structuredContent as {
        clientId: string;
        called: Array<{ endpoint: string; calls: number }>;
        changes: Array<{ text: string; operations: Array<{ endpoint: string }> }>;
      };
      assert.equal(broken.clientId, clients.acme.id);
      assert.deepEqual(
        broken.called.map((c) => [c.endpoint, c.calls]),
        [['GET /users', 3]],
      );
      assert.ok(broken.changes.length > 0, 'the list answer becoming an object breaks GET /users');
      assert.ok(
        broken.changes.every((c) => c.operations.every((o) => o.endpoint === 'GET /users')),
        'only what Acme called',
      );

      const guide = await call(peer, 'migration_guide', { from: 'v1' });
      assert.equal(guide.isError, undefined);
      assert.match(guide.content[0]!.text, /^# Migrating from v1 to v2\n/);
      assert.match(guide.content[0]!.text, /## Breaking changes/);

      const refused = await call(peer, 'usage', { version: 'v1' });
      assert.equal(refused.isError, true);
      assert.match(refused.content[0]!.text, /usage needs an admin key/);

      const other = await call(peer, 'deprecations', { clientId: clients.beta.id });
      assert.equal(other.isError, true, 'another client is never answered');
      assert.match(other.content[0]!.text, /No such client/);
      assert.doesNotMatch(JSON.stringify(other), /Beta/);

      for (const [name, args, reason] of [
        ['what_breaks', { from: 7 }, /Invalid input for what_breaks.*from/],
        ['what_breaks', { from: 'v9' }, /"from" must be one of v1, v2/],
        ['migration_guide', {}, /Invalid input for migration_guide.*from/],
        ['migration_guide', { from: 'v2', to: 'v1' }, /the second later than the first/],
        ['deprecations', { verbose: true }, /verbose is not an input of deprecations/],
        ['no_such_tool', {}, /Unknown tool "no_such_tool"/],
      ] as const) {
        const bad = await call(peer, name, args);
        assert.equal(bad.isError, true, `${name} ${JSON.stringify(args)} is a tool error`);
        assert.match(bad.content[0]!.text, reason);
      }
      assert.deepEqual(peer.strayLines(), [], 'stdout carries JSON-RPC answers only');
    } finally {
      assert.equal(await peer.close(), 0, peer.stderr());
    }
  });

  it('an admin key (from --key) sees every client, names one, and reads usage', async () => {
    const peer = spawnStdioPeer(['mcp', '--server', `${service.base}/`, '--key', adminKey]);
    try {
      await initialize(peer);
      const all = (await call(peer, 'deprecations')).structuredContent as {
        clientId: null;
        deprecations: Array<{ kind: string; name: string; usage: { calls: number; clients: number } }>;
      };
      assert.equal(all.clientId, null);
      const v1 = all.deprecations.find((d) => d.kind === 'version' && d.name === 'v1')!;
      assert.deepEqual([v1.usage.calls, v1.usage.clients], [5, 2]);

      const beta = (await call(peer, 'deprecations', { clientId: clients.beta.id })).structuredContent as {
        deprecations: Array<{ name: string; usage: { calls: number } }>;
      };
      assert.equal(beta.deprecations.find((d) => d.name === 'v1')?.usage.calls, 2);

      const usage = (await call(peer, 'usage', { version: 'v1' })).structuredContent as {
        clients: Array<{
          clientId: string;
          clientName: string;
          calls: number;
          endpoints: Array<{ endpoint: string; calls: number }>;
        }>;
      };
      assert.deepEqual(
        usage.clients.map((c) => [c.clientName, c.calls, c.endpoints]),
        [
          ['Acme', 3, [{ endpoint: 'GET /users', calls: 3 }]],
          ['Beta', 2, [{ endpoint: 'GET /users', calls: 2 }]],
        ],
      );

      const field = (await call(peer, 'usage', { element: 'User.nickname' })).structuredContent as {
        window: null;
        clients: Array<{ clientName: string; version: string; calls: number; endpoints: unknown }>;
      };
      assert.equal(field.window, null, 'element calls are all-time totals');
      assert.deepEqual(
        field.clients.map((c) => [c.clientName, c.version, c.calls, c.endpoints]),
        [['Beta', 'v2', 1, [{ endpoint: 'POST /users', calls: 1 }]]],
      );
      const betaField = beta.deprecations.find((d) => d.name === 'User.nickname');
      assert.equal(betaField?.usage.calls, 1, 'Beta called the deprecated field: it is among its deprecations');

      const breaks = await call(peer, 'what_breaks', { clientId: clients.beta.id });
      assert.deepEqual(
        (breaks.structuredContent as { called: Array<{ calls: number }> }).called.map((c) => c.calls),
        [2],
      );
      const unnamed = await call(peer, 'what_breaks');
      assert.equal(unnamed.isError, true);
      assert.match(unnamed.content[0]!.text, /give clientId/);
      const bad = await call(peer, 'usage', {});
      assert.equal(bad.isError, true);
      assert.match(bad.content[0]!.text, /Name a version/);
    } finally {
      assert.equal(await peer.close(), 0, peer.stderr());
    }
  });

  it('answers a line that is not JSON, a batch and bad tools/call params with one-sentence errors; passes the title', async () => {
    // The service's own serverInfo, over HTTP: the bridge must hand on its title.
    const direct = await fetch(`${service.base}/admin/mcp`, {
      method: 'POST',
      headers: { ...admin, accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    const served = ((await direct.json()) as { result: { serverInfo: { title?: string } } }).result.serverInfo;
    assert.ok(served.title, 'the service names its title');
    const peer = spawnStdioPeer(['mcp', '--server', service.base, '--key', adminKey]);
    try {
      const init = await initialize(peer);
      assert.equal((init.serverInfo as { title?: string }).title, served.title);

      const errorOf = (line: string) => {
        const answer = JSON.parse(line) as { id: unknown; error?: { code: number; message: string } };
        assert.equal(answer.id, null, line);
        assert.ok(answer.error, line);
        return answer.error;
      };
      peer.sendRaw('this is not json');
      const parse = errorOf(await peer.strayLine(1));
      assert.equal(parse.code, -32700);
      assert.match(parse.message, /not JSON/);
      peer.sendRaw(JSON.stringify([{ jsonrpc: '2.0', id: 90, method: 'tools/list' }]));
      const batch = errorOf(await peer.strayLine(2));
      assert.equal(batch.code, -32600);
      assert.match(batch.message, /batch/);

      for (const params of [
        undefined,
        { name: 'deprecations', arguments: 'x' },
        { name: 'deprecations', arguments: null },
      ]) {
        const answer = await peer.request('tools/call', params);
        assert.equal(answer.error?.code, -32602, JSON.stringify(answer));
        assert.doesNotMatch(answer.error.message, /\n|"code"|invalid_type/, 'one sentence, not the issue list');
      }
      // The bridge still serves after all of it.
      assert.equal((await call(peer, 'deprecations')).isError, undefined);
    } finally {
      assert.equal(await peer.close(), 0, peer.stderr());
    }
  });

  it('a refused key or an unreachable server is a message on stderr and exit code 2, before any JSON-RPC', async () => {
    const refused = spawnStdioPeer(['mcp', '--server', service.base, '--key', 'vk_0123456789abcdef.not-a-real-key']);
    assert.equal(await refused.exited, 2);
    assert.match(refused.stderr(), /versionary mcp: the server refused the key \(401\): The credentials are not valid/);

    const port = await freePort();
    const unreachable = spawnStdioPeer(['mcp', '--server', `http://127.0.0.1:${port}`, '--key', adminKey]);
    assert.equal(await unreachable.exited, 2);
    assert.match(unreachable.stderr(), new RegExp(`versionary mcp: cannot reach http://127\\.0\\.0\\.1:${port}`));

    const keyless = spawnStdioPeer(['mcp', '--server', service.base]);
    assert.equal(await keyless.exited, 2);
    assert.match(keyless.stderr(), /a key is needed: --key KEY or VERSIONARY_KEY/);
  });
});
