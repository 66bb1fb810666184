// The issue's "done when": the reference service records who calls what, and `versionary diff
// --server`, run as CI runs it, fails a change only when a client's calls reach it; excluding that
// client or approving the change's fingerprint (through the CLI) lets it pass. Once on SQLite with
// one instance, once on PostgreSQL with two instances sharing one schema, the calls spread over both.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { runCliProcess } from '../support/cli-process.ts';
import { startTestService, type StartedService } from '../support/started-service.ts';

const adminKey = 'test-admin-key-0123456789';
const postgresUrl = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const config = { rateLimit: { max: 1_000_000, windowSeconds: 60 }, usage: { operationFlushSeconds: 1 } };
const dir = mkdtempSync(join(tmpdir(), 'versionary-gate-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers and documents, read field by field
type Json = any;

async function call(
  base: string,
  options: { method?: string; path: string; key?: string; body?: unknown },
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${base}${options.path}`, {
    method: options.method ?? 'GET',
    headers: {
      authorization: `Bearer ${options.key ?? adminKey}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Remove a property from the user response, or an operation, in a copy of the served document. */
function edited(base: Json, edit: (doc: Json) => void): object {
  const doc = structuredClone(base);
  edit(doc);
  return doc;
}

async function scenario(services: StartedService[]): Promise<{ gate: string[]; clientId: string }> {
  const [first] = services as [StartedService];
  const acme = await call(first.base, {
    method: 'POST',
    path: '/admin/v1/clients',
    body: { name: 'Acme', contacts: ['dev@acme.test'] },
  });
  assert.equal(acme.status, 201, JSON.stringify(acme.body));
  const clientId = acme.body.id as string;
  const key = await call(first.base, {
    method: 'POST',
    path: '/admin/v1/api-keys',
    body: { name: 'acme-app', roles: ['read', 'write'], clientId },
  });
  const ci = await call(first.base, {
    method: 'POST',
    path: '/admin/v1/api-keys',
    body: { name: 'release-ci', roles: ['admin'] },
  });
  assert.equal(ci.status, 201);
  // Users belong to the client that created them.
  const user = await call(first.base, {
    method: 'POST',
    path: '/api/v2/users',
    body: { name: 'Ada' },
    key: key.body.key,
  });
  assert.equal(user.status, 201, JSON.stringify(user.body));
  // Acme reads one user on v1 and on v2, on every instance.
  for (const service of services)
    for (const version of ['v1', 'v2']) {
      const res = await call(service.base, { path: `/api/${version}/users/${user.body.id}`, key: key.body.key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
  // Every instance's counts reach the database within its flush interval.
  const expected = services.length;
  let seen = 0;
  for (let i = 0; i < 100 && seen < expected; i++) {
    const usage = await call(first.base, { path: `/admin/v1/usage/operations?version=v2&client=${clientId}` });
    assert.equal(usage.status, 200, JSON.stringify(usage.body));
    seen = usage.body.data.find((r: { endpoint: string }) => r.endpoint === 'GET /users/{id}')?.calls ?? 0;
    if (seen < expected) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(seen, expected, 'the calls of every instance are counted');

  const served = await call(first.base, { path: '/api/v2/openapi.json' });
  assert.equal(served.status, 200);
  const base = served.body;
  assert.ok(base.paths['/api/v2/users/{id}'], 'the served document carries the prefix and version');
  writeFileSync(join(dir, 'base.json'), JSON.stringify(base));
  writeFileSync(
    join(dir, 'head-field.json'),
    JSON.stringify(edited(base, (d) => delete d.components.schemas.UserDetail.properties.email)),
  );
  writeFileSync(
    join(dir, 'head-operation.json'),
    JSON.stringify(edited(base, (d) => delete d.paths['/api/v2/users/{id}/posts/{postId}'].delete)),
  );
  const cli = (args: string[]) => runCliProcess(args, { cwd: dir });
  const gate = ['--server', first.base, '--key', ci.body.key];

  // (a) a field of the user response removed: Acme called GET /users/{id} on v2.
  const broken = await cli(['diff', 'base.json', 'head-field.json', ...gate]);
  assert.equal(broken.code, 1, broken.stderr + broken.stdout);
  assert.match(broken.stdout, /^BROKEN +breaking response-property-removed/m, broken.stderr);
  // Its calls to every operation the change reaches: the reads, and the POST that created the user.
  assert.match(broken.stdout, new RegExp(`Acme \\(${clientId}\\): ${expected + 1} calls, last \\S+, contact yes`));
  assert.match(broken.stdout, /reaches .*GET \/api\/v2\/users\/\{id\}/);
  const fingerprint = /fingerprint ([0-9a-f]{16}); hurts 1 client/.exec(broken.stdout)?.[1];
  assert.ok(fingerprint, broken.stdout);

  // (b) an operation nobody called removed.
  const unaffected = await cli(['diff', 'base.json', 'head-operation.json', ...gate]);
  assert.equal(unaffected.code, 0, unaffected.stderr + unaffected.stdout);
  assert.match(
    unaffected.stdout,
    /^UNAFFECTED +breaking endpoint-removed +DELETE \/api\/v2\/users\/\{id\}\/posts\/\{postId\}/m,
  );
  assert.match(unaffected.stdout, /no client called it in the window/);

  // (c) (a) without Acme.
  const excluded = await cli(['diff', 'base.json', 'head-field.json', ...gate, '--exclude-client', clientId]);
  assert.equal(excluded.code, 0, excluded.stderr + excluded.stdout);
  assert.match(excluded.stdout, /^UNAFFECTED +breaking response-property-removed/m);
  assert.match(excluded.stdout, /excluded: Acme/);

  // (d) (a) once approved through the CLI, naming the approver.
  const approve = await cli(['approvals', 'approve', fingerprint, '--reason', 'Acme moves to email v3', ...gate]);
  assert.equal(approve.code, 0, approve.stderr);
  const approved = await cli(['diff', 'base.json', 'head-field.json', ...gate]);
  assert.equal(approved.code, 0, approved.stderr + approved.stdout);
  assert.match(approved.stdout, /^APPROVED +breaking response-property-removed/m);
  assert.match(approved.stdout, new RegExp(`approved by release-ci \\(${ci.body.id}\\): Acme moves to email v3`));

  // A usage source that refuses the key is never a pass.
  const refused = await cli(['diff', 'base.json', 'head-field.json', '--server', first.base, '--key', key.body.key]);
  assert.equal(refused.code, 2, refused.stdout);
  assert.match(refused.stderr, /answered 403/);
  return { gate, clientId };
}

/**
 * The gate never passes on silence: `--api-version "$V"` with V unset, a version or client the
 * service does not know, or a blank window, threshold or client is exit 2 with a line naming it;
 * and a change judged with no usage row read for what it reaches says so in every format.
 */
async function silenceChecks(gate: string[], clientId: string): Promise<void> {
  const cli = (args: string[]) =>
    runCliProcess(['diff', 'base.json', 'head-field.json', ...gate, ...args], { cwd: dir });
  // Blank --window, --threshold and --exclude-client are refused the same way (diff-gate-cli.test.ts).
  const refusals: Array<[string[], RegExp]> = [
    [['--api-version', ''], /option --api-version is empty/],
    [['--api-version', 'v9'], /--api-version v9: .* serves no such version.*v1, v2/],
    // A version the service serves, but not the one the documents describe: no row could match them.
    [
      ['--api-version', 'v1'],
      /--api-version v1 is not the version of base\.json: its info\.version is "v2", its paths are under \/api\/v2/,
    ],
    [
      ['--exclude-client', clientId, '--exclude-client', 'cl_0000000000000000'],
      /--exclude-client cl_0000000000000000: .* no such client/,
    ],
  ];
  for (const [args, why] of refusals) {
    const run = await cli(args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}`);
    assert.match(run.stderr.split('\n')[0]!, why, args.join(' '));
    assert.equal(run.stdout, '', `${args.join(' ')} judges nothing`);
  }
  // A base document whose info.version the service does not serve is refused too.
  const served = JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8'));
  writeFileSync(join(dir, 'base-1.0.json'), JSON.stringify({ ...served, info: { ...served.info, version: '1.0.0' } }));
  const other = await runCliProcess(['diff', 'base-1.0.json', 'head-field.json', ...gate], { cwd: dir });
  assert.equal(other.code, 2, other.stdout);
  assert.match(other.stderr, /info\.version "1\.0\.0" is not a version .* pass --api-version/);
  // Its paths still say which version it describes: --api-version must agree with them.
  const byPaths = (version: string) =>
    runCliProcess(['diff', 'base-1.0.json', 'head-field.json', ...gate, '--api-version', version], { cwd: dir });
  const wrong = await byPaths('v1');
  assert.equal(wrong.code, 2, wrong.stdout);
  assert.match(wrong.stderr, /--api-version v1 is not the version of base-1\.0\.json: its paths are under \/api\/v2;/);
  const right = await byPaths('v2');
  // Judged on v2's rows (approved in the scenario above), not refused.
  assert.equal(right.code, 0, right.stderr + right.stdout);
  assert.match(right.stdout, /^APPROVED +breaking response-property-removed/m);
  assert.match(right.stdout, /Acme \(cl_[0-9a-f]+\): \d+ calls/);

  // An operation nobody called: every format says that no usage row was read for it.
  const silent = (format: string) =>
    runCliProcess(['diff', 'base.json', 'head-operation.json', ...gate, '--format', format], { cwd: dir });
  const said = /no usage row read for any operation it reaches in the window/;
  for (const format of ['text', 'markdown', 'github']) {
    const run = await silent(format);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, said, format);
    assert.match(run.stdout, /1 judged with no usage row read/, format);
  }
  const json = JSON.parse((await silent('json')).stdout);
  assert.equal(json.changes[0].usageRowsRead, 0);
  assert.match(json.changes[0].silence, said);
  assert.deepEqual(json.changes[0].operationsWithoutUsage, ['DELETE /api/v2/users/{id}/posts/{postId}']);
  const sarif = JSON.parse((await silent('sarif')).stdout).runs[0].results[0];
  assert.match(sarif.message.text, said);
  assert.equal(sarif.properties.usageRowsRead, 0);
  // A change whose operations were called reads rows, and names no silence.
  const called = JSON.parse((await cli(['--format', 'json'])).stdout);
  assert.ok(called.changes[0].usageRowsRead > 0, JSON.stringify(called.changes[0]));
  assert.doesNotMatch(called.changes[0].silence ?? '', /GET \/api\/v2\/users\/\{id\}[,\s]/);
  assert.ok(called.changes[0].operationsWithoutUsage.length < called.changes[0].operations.length);
}

describe('versionary diff --server on the reference service', () => {
  it('SQLite, one instance: fails only on what a client called, until excluded or approved', async () => {
    const service = await startTestService({ file: config });
    try {
      const { gate, clientId } = await scenario([service]);
      await silenceChecks(gate, clientId);
    } finally {
      await service.stop();
    }
  });

  it('PostgreSQL, two instances sharing the calls: the same', async () => {
    const schema = `vtest_${randomBytes(6).toString('hex')}`;
    const env = { DATABASE_URL: postgresUrl, VERSIONARY_DB_SCHEMA: schema };
    const services: StartedService[] = [];
    try {
      services.push(await startTestService({ file: config, env }));
      services.push(await startTestService({ file: config, env }));
      await scenario(services);
    } finally {
      for (const s of services) await s.stop();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});
