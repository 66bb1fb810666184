import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DecisionTable } from '../../src/core/rulebook/index.ts';
import { assertFieldErrors, assertProblem } from '../support/assertions.ts';
import { gatewayAdminKey, spawnGateway, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { spawnService } from '../support/service-process.ts';

/** A data plane and its management API, as users start them. */
interface Plane {
  base: string;
  adminKey: string;
  stop(): Promise<unknown>;
}

type Answer = { statusCode: number; headers: Record<string, string>; body: string };

const call = async (base: string, path: string, init: { method?: string; key?: string; body?: unknown } = {}) => {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const body = await res.text();
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), body } as Answer;
};

/**
 * The minimum version per client, through one data plane: set it, see the table hold it when the
 * PATCH has answered, the client refused its older version (410 with the successor link) and
 * nobody else, then clear it.
 */
function minimumVersionSuite(start: () => Promise<Plane>): void {
  let plane: Plane;
  let moved: { id: string; key: string };
  let other: { id: string; key: string };
  const admin = (method: string, path: string, body?: unknown) =>
    call(plane.base, path, { method, key: plane.adminKey, body });
  const client = async (name: string) => {
    const id = (JSON.parse((await admin('POST', '/admin/v1/clients', { name })).body) as { id: string }).id;
    const minted = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: id });
    return { id, key: (JSON.parse(minted.body) as { key: string }).key };
  };
  before(async () => {
    plane = await start();
    [moved, other] = [await client('moved'), await client('other')];
  });
  after(async () => plane?.stop());

  it('refuses a version the API does not know, and a value of another type, with a 400 problem', async () => {
    const unknown = await admin('PATCH', `/admin/v1/clients/${moved.id}`, { minimumVersion: 'v9' });
    const problem = assertFieldErrors(unknown as never, '/body/minimumVersion');
    assert.match(String(problem.detail), /"v9" is not a version of this API \(v1, v2\)/);
    assertProblem((await admin('PATCH', `/admin/v1/clients/${moved.id}`, { minimumVersion: 2 })) as never, {
      status: 400,
    });
  });

  it('sets the minimum: the table holds it once the PATCH has answered', async () => {
    const res = await admin('PATCH', `/admin/v1/clients/${moved.id}`, { minimumVersion: 'v2' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((JSON.parse(res.body) as { minimumVersion: string }).minimumVersion, 'v2');
    const table = JSON.parse((await admin('GET', '/admin/v1/decision-table')).body) as DecisionTable;
    const row = table.minimumVersions?.[moved.id];
    assert.equal(row?.version, 'v2');
    assert.equal(table.problems[row!.problem]?.status, 410);
    assert.equal(table.minimumVersions?.[other.id], undefined);
    const shown = await admin('GET', `/admin/v1/clients/${moved.id}`);
    assert.equal((JSON.parse(shown.body) as { minimumVersion: string }).minimumVersion, 'v2');
    // A patch without the member keeps it (JSON Merge Patch).
    await admin('PATCH', `/admin/v1/clients/${moved.id}`, { name: 'moved on' });
    assert.equal(JSON.parse((await admin('GET', `/admin/v1/clients/${moved.id}`)).body).minimumVersion, 'v2');
  });

  it("answers the client's calls to v1 with 410 and a link to v2; v2 and other clients as before", async () => {
    const refused = await call(plane.base, '/api/v1/users', { key: moved.key });
    const problem = assertProblem(refused as never, { status: 410, code: 'VERSION_RETIRED_FOR_CLIENT' });
    assert.equal(problem.type, '/problems/version-retired-for-client');
    assert.equal(problem.minimumVersion, 'v2');
    assert.match(String(problem.detail), /moved to v2/);
    assert.match(refused.headers.link ?? '', /<\/api\/v2\/openapi\.json>; rel="successor-version"/);
    assert.equal((await call(plane.base, '/api/v2/users', { key: moved.key })).statusCode, 200);
    assert.equal((await call(plane.base, '/api/v1/users', { key: other.key })).statusCode, 200);
  });

  it('null clears it: v1 answers the client again', async () => {
    const res = await admin('PATCH', `/admin/v1/clients/${moved.id}`, { minimumVersion: null });
    assert.equal(JSON.parse(res.body).minimumVersion, null);
    assert.equal((await call(plane.base, '/api/v1/users', { key: moved.key })).statusCode, 200);
  });
}

describe('minimum version per client: the service (node dist/server.js)', () => {
  minimumVersionSuite(async () => {
    const adminKey = 'test-admin-key-0123456789';
    const service = await spawnService({ env: { DATABASE_URL: 'sqlite::memory:', VERSIONARY_ADMIN_KEY: adminKey } });
    return { base: service.base, adminKey, stop: () => service.stop() };
  });
});

describe('minimum version per client: versionary gateway', () => {
  let python: PythonUpstream;
  minimumVersionSuite(async () => {
    python = await startPythonUpstream();
    const gateway = await spawnGateway({ upstream: python.url });
    return {
      base: gateway.base,
      adminKey: gatewayAdminKey,
      stop: async () => {
        await gateway.stop();
        await python.stop();
      },
    };
  });
});
