import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { startService, type RunningService } from '../../src/compose/start-service.ts';
import { composeGateway } from '../../src/gateway/composition.ts';
import { nginxControlPlane, nginxTargetOf } from '../../src/gateway/nginx/control-plane.ts';
import { gatewayAdminKey, startPythonUpstream, upstreamDocument } from '../support/gateway.ts';
import { startDataPlane } from '../support/nginx.ts';

const postgresUrl = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = { authorization: `Bearer ${gatewayAdminKey}` };
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** One line as nginx writes it with `log_format versionary_usage` (`escape=json`). */
function line(call: {
  version: string;
  operation: string;
  client: string;
  status?: number;
  deprecated?: string;
  method?: string;
}): string {
  return `${JSON.stringify({
    ts: (Date.now() / 1000).toFixed(3),
    rid: randomBytes(16).toString('hex'),
    version: call.version,
    operation: call.operation,
    method: call.method ?? 'GET',
    client: call.client,
    status: String(call.status ?? 200),
    deprecated: call.deprecated ?? '',
  })}\n`;
}

/** The control plane's files: the gateway config naming the usage log, and the documents. */
function writeConfig(dir: string): void {
  for (const v of ['v1', 'v2']) writeFileSync(join(dir, `openapi-${v}.json`), JSON.stringify(upstreamDocument(v)));
  const config = {
    gateway: {
      prefix: '/api',
      vendor: 'acme',
      versions: {
        v1: { upstream: 'http://127.0.0.1:9', openapi: './openapi-v1.json' },
        v2: { upstream: 'http://127.0.0.1:9', openapi: './openapi-v2.json' },
      },
      // Relative to the config file, as the documents are.
      nginx: { out: './nginx', usageLog: './logs/usage.log' },
    },
    versions: { v1: { deprecatedAt: iso(Date.now() - 10 * day), sunsetAt: iso(Date.now() + 200 * day) } },
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
}

/** Start the control plane (`versionary gateway --control-plane`'s composition) on the config in `dir`. */
async function start(
  dir: string,
  database: string,
  schema: string,
): Promise<{ base: string; running: RunningService }> {
  const readFile = (path: string) => readFileSync(path, 'utf8');
  let exitCode: number | undefined;
  const running = await startService({
    env: {
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: database,
      VERSIONARY_DB_SCHEMA: schema,
      LOG_LEVEL: 'silent',
      VERSIONARY_ADMIN_KEY: gatewayAdminKey,
      VERSIONARY_SHUTDOWN_DELAY_MS: '0',
      VERSIONARY_CONFIG: join(dir, 'config.json'),
    },
    readFile,
    exit: (code) => {
      exitCode = code;
    },
    // As `versionary gateway --control-plane` composes it.
    compose: (c) =>
      composeGateway({
        config: c,
        readFile,
        controlPlane: nginxControlPlane({ config: c, ...nginxTargetOf(c) }),
        readUsageLog: true,
      }),
  });
  await running.ready;
  if (exitCode !== undefined) throw new Error(`the control plane did not start (exit ${exitCode})`);
  return { base: `http://127.0.0.1:${running.address.port}`, running };
}

type Counts = Record<string, number>;

/** Calls per `version endpoint client` from `/admin/v1/usage/operations` (every call) or `/usage/endpoints` (deprecated ones). */
async function usage(base: string, route: 'operations' | 'endpoints'): Promise<Counts> {
  const res = await fetch(`${base}/admin/v1/usage/${route}`, { headers: admin });
  assert.equal(res.status, 200);
  const body = (await res.json()) as {
    data: Array<{ version: string; endpoint: string; clientId: string; calls: number }>;
  };
  const counts: Counts = {};
  for (const r of body.data) {
    const key = `${r.version} ${r.endpoint} ${r.clientId}`;
    counts[key] = (counts[key] ?? 0) + r.calls;
  }
  return counts;
}

/** Wait until the operation counts are `expected`, then a little longer: what is counted once stays counted once. */
async function expectOperations(base: string, expected: Counts): Promise<void> {
  const deadline = Date.now() + 20_000;
  let seen: Counts = {};
  while (Date.now() < deadline) {
    seen = await usage(base, 'operations');
    if (JSON.stringify(sorted(seen)) === JSON.stringify(sorted(expected))) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 1500));
  assert.deepEqual(sorted(await usage(base, 'operations')), sorted(expected));
}
const sorted = (c: Counts) => Object.fromEntries(Object.entries(c).sort(([a], [b]) => a.localeCompare(b)));

const databases: Array<{ name: string; url: (dir: string) => string }> = [
  { name: 'SQLite', url: (dir) => `sqlite:${join(dir, 'control.db')}` },
  { name: 'PostgreSQL', url: () => postgresUrl },
];

for (const database of databases) {
  describe(`usage from nginx's access log, on ${database.name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'versionary-nginx-usage-'));
    const schema = `vnginx_${randomBytes(6).toString('hex')}`;
    const log = join(dir, 'logs', 'usage.log');
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      if (database.name !== 'PostgreSQL') return;
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    });

    it('counts each call once per client through a restart, a rotation while down, copytruncate, partial and malformed lines', async () => {
      writeConfig(dir);
      mkdirSync(join(dir, 'logs'));
      const acmeV1 = line({ version: 'v1', operation: '/users/{id}', client: 'acme' });
      writeFileSync(
        log,
        acmeV1 +
          acmeV1.replace(/"rid":"\w+"/, `"rid":"${randomBytes(16).toString('hex')}"`) +
          line({ version: 'v1', operation: '/users', client: 'beta' }) +
          line({ version: 'v2', operation: '/users', client: 'acme' }) +
          line({ version: 'v2', operation: '/echo', method: 'POST', client: 'acme' }) +
          // Refused by the key check: no usage, as the gateway records none.
          line({ version: 'v2', operation: '/users', client: '', status: 401 }) +
          // An unknown path: no operation, no usage.
          line({ version: 'v2', operation: '/nope', client: 'acme', status: 404 }) +
          '{"ts":"oops"}\n' +
          'not json at all\n' +
          // nginx is still writing this one.
          line({ version: 'v2', operation: '/users', client: 'gamma' }).slice(0, 40),
      );
      const partial = line({ version: 'v2', operation: '/users', client: 'gamma' });
      let plane = await start(dir, database.url(dir), schema);
      const expected: Counts = {
        'v1 GET /users/{id} acme': 2,
        'v1 GET /users beta': 1,
        'v2 GET /users acme': 1,
        'v2 POST /echo acme': 1,
      };
      await expectOperations(plane.base, expected);
      // Deprecated v1's calls are in the per-client usage too, as the gateway records them.
      assert.deepEqual(sorted(await usage(plane.base, 'endpoints')), {
        'v1 GET /users beta': 1,
        'v1 GET /users/{id} acme': 2,
      });
      // The rest of the partial line arrives: it is counted whole, once (the bytes already there were the start of it).
      writeFileSync(log, readFileSync(log, 'utf8').slice(0, -40) + partial);
      expected['v2 GET /users gamma'] = 1;
      await expectOperations(plane.base, expected);

      // Down: more lines, then logrotate's rename and a new file (nginx -s reopen), and lines in it.
      assert.equal(await plane.running.shutdown('SIGTERM'), 0);
      appendFileSync(log, line({ version: 'v1', operation: '/users', client: 'beta' }));
      renameSync(log, `${log}.1`);
      writeFileSync(log, line({ version: 'v2', operation: '/users', client: 'beta' }).repeat(2));
      plane = await start(dir, database.url(dir), schema);
      expected['v1 GET /users beta'] = 2;
      expected['v2 GET /users beta'] = 2;
      await expectOperations(plane.base, expected);
      assert.equal((await usage(plane.base, 'endpoints'))['v1 GET /users beta'], 2);

      // Running: copytruncate (copied to .1, truncated in place), then a new line.
      appendFileSync(log, line({ version: 'v2', operation: '/echo', client: 'delta' }));
      await expectOperations(plane.base, { ...expected, 'v2 GET /echo delta': 1 });
      copyFileSync(log, `${log}.1`);
      truncateSync(log, 0);
      appendFileSync(log, line({ version: 'v2', operation: '/echo', client: 'delta' }));
      await expectOperations(plane.base, { ...expected, 'v2 GET /echo delta': 2 });

      // A restart with nothing new counts nothing again.
      assert.equal(await plane.running.shutdown('SIGTERM'), 0);
      plane = await start(dir, database.url(dir), schema);
      await expectOperations(plane.base, { ...expected, 'v2 GET /echo delta': 2 });
      assert.equal(await plane.running.shutdown('SIGTERM'), 0);
    });
  });
}

describe("usage from nginx's access log, through nginx itself", () => {
  it('counts the calls nginx served per client, as the gateway counts them', async () => {
    const python = await startPythonUpstream();
    const plane = await startDataPlane({
      upstream: python.url,
      readUsageLog: true,
      file: { versions: { v1: { deprecatedAt: iso(Date.now() - 10 * day), sunsetAt: iso(Date.now() + 200 * day) } } },
    });
    try {
      const post = async (path: string, body: unknown) =>
        (await (
          await fetch(`${plane.control}/admin/v1/${path}`, {
            method: 'POST',
            headers: { ...admin, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json()) as Record<string, string>;
      const acme = await post('clients', { name: 'Acme', contacts: ['dev@acme.test'] });
      const { key } = await post('api-keys', { name: 'acme', roles: ['read'], clientId: acme.id });
      const call = async (path: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
        (await fetch(`${plane.base}${path}`, { headers })).status;
      for (let i = 0; i < 3; i++) assert.equal(await call('/api/v1/users/1'), 200);
      assert.equal(await call('/api/v2/users'), 200);
      assert.equal(await call('/api/v2/users', {}), 401);
      // nginx writes a line once its answer is sent, which a client may read first: wait for it.
      for (let i = 0; i < 50 && plane.usage().length < 5; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(plane.usage().length, 5);
      await expectOperations(plane.control, { [`v1 GET /users/{id} ${acme.id}`]: 3, [`v2 GET /users ${acme.id}`]: 1 });
      assert.deepEqual(await usage(plane.control, 'endpoints'), { [`v1 GET /users/{id} ${acme.id}`]: 3 });
    } finally {
      await plane.stop();
      await python.stop();
    }
  });
});
