// The rulebook is what runs: a V8 coverage run of the service (`node src/server.ts`, as the service
// process runs) and of `versionary gateway` (the built CLI) counts core's `decide` called for every
// API request, whether the version is current or deprecated, the call allowed or refused.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gatewayAdminKey, spawnGateway, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { spawnService } from '../support/service-process.ts';

interface Coverage {
  result: Array<{ url: string; functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> }>;
}

/** How many times the process called `decide` of `core/rulebook/decide.(ts|js)`, from its coverage files. */
function decideCalls(dir: string): number {
  let calls = 0;
  for (const file of readdirSync(dir)) {
    const coverage = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Coverage;
    for (const script of coverage.result)
      if (/\/core\/rulebook\/decide\.[jt]s$/.test(script.url))
        for (const fn of script.functions) if (fn.functionName === 'decide') calls += fn.ranges[0]!.count;
  }
  return calls;
}

async function callAll(base: string, paths: readonly string[], headers: Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  for (const path of paths) {
    const response = await fetch(`${base}${path}`, { headers });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

describe('decide runs on every API request of the Node data planes', () => {
  let coverage: string;
  before(() => {
    coverage = mkdtempSync(join(tmpdir(), 'versionary-coverage-'));
  });
  after(() => rmSync(coverage, { recursive: true, force: true }));

  it('the service: every API request is decided by core', async () => {
    const dir = join(coverage, 'service');
    const adminKey = `decide-admin-${randomBytes(8).toString('hex')}`;
    const service = await spawnService({
      env: { DATABASE_URL: 'sqlite::memory:', VERSIONARY_ADMIN_KEY: adminKey, NODE_V8_COVERAGE: dir },
    });
    const admin = { authorization: `Bearer ${adminKey}` };
    // v1 deprecated: its calls carry the decision's headers.
    const scheduled = await fetch(`${service.base}/admin/v1/versions/v1/deprecation`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ noticeMonths: 12 }),
    });
    assert.ok(scheduled.ok, `scheduled: ${scheduled.status} ${await scheduled.text()}`);
    const paths = [
      '/api/v2/users',
      '/api/v1/users',
      '/api/v2/users/1',
      '/api/v1/users/1',
      '/api/v2/posts',
      '/api/v1/posts',
    ];
    const statuses = await callAll(service.base, paths, admin);
    const v1 = await fetch(`${service.base}/api/v1/users`, { headers: admin });
    assert.ok(v1.headers.get('deprecation'), 'v1 carries the decision’s Deprecation');
    await v1.arrayBuffer();
    const { code } = await service.stop();
    assert.equal(code, 0, service.output().slice(-2000));
    assert.ok(
      statuses.every((s) => s < 500),
      `statuses ${statuses.join(' ')}`,
    );
    const calls = decideCalls(dir);
    assert.ok(
      calls >= paths.length + 1,
      `decide called ${calls} times for ${paths.length + 1} API requests (${statuses.join(' ')})`,
    );
  });

  describe('versionary gateway', () => {
    let python: PythonUpstream;
    before(async () => {
      python = await startPythonUpstream();
    });
    after(() => python.stop());

    it('every forwarded API request is decided by core', async () => {
      const dir = join(coverage, 'gateway');
      const gateway = await spawnGateway({ upstream: python.url, env: { NODE_V8_COVERAGE: dir } });
      const auth = { authorization: `Bearer ${gatewayAdminKey}` };
      const paths = ['/api/v2/users', '/api/v1/users', '/api/v2/users/1', '/api/v1/users/1'];
      const statuses = await callAll(gateway.base, paths, auth);
      await gateway.stop();
      assert.deepEqual(statuses, [200, 200, 200, 200]);
      const calls = decideCalls(dir);
      assert.ok(calls >= paths.length, `decide called ${calls} times for ${paths.length} API requests`);
    });
  });
});
