import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DecisionTable } from '../../src/core/rulebook/index.ts';
import { assertFieldErrors, assertProblem } from '../support/assertions.ts';
import { createCliHarness } from '../support/cli-harness.ts';
import { gatewayAdminKey, spawnGateway, startPythonUpstream, type PythonUpstream } from '../support/gateway.ts';
import { startDataPlane } from '../support/nginx.ts';
import { eventually, spawnService } from '../support/service-process.ts';

/** A data plane and its management API, as users start them. */
interface Plane {
  base: string;
  admin: string;
  adminKey: string;
  /** Resolves once the data plane holds the control plane's table (nginx is pushed it). */
  settle(): Promise<void>;
  stop(): Promise<unknown>;
}
type Start = (file: Record<string, unknown>) => Promise<Plane>;
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

/** v1 past its sunset for everyone (six months' notice, long gone). */
const removedV1 = { versions: { v1: { deprecatedAt: '2025-01-01T00:00:00Z', sunsetAt: '2025-07-02T00:00:00Z' } } };

/**
 * The minimum version per client, through one data plane: set it, see the table hold it when the
 * PATCH has answered, the client refused its older version (410 with the successor link) and
 * nobody else, then clear it; and on a version already removed for everyone, the client's own
 * minimum still answers it first.
 */
function minimumVersionSuite(start: Start): void {
  describe('v1 deprecated', () => {
    const p = setUp(start, {});
    it('refuses a version the API does not know, and a value of another type, with a 400 problem', async () => {
      const unknown = await p.admin('PATCH', `/admin/v1/clients/${p.moved.id}`, { minimumVersion: 'v9' });
      const problem = assertFieldErrors(unknown as never, '/body/minimumVersion');
      // The document's enum is the API's versions: the answer names them.
      assert.match(String(problem.detail), /\/body\/minimumVersion must be one of v1, v2/);
      const wrong = await p.admin('PATCH', `/admin/v1/clients/${p.moved.id}`, { minimumVersion: 2 });
      assertProblem(wrong as never, { status: 400 });
    });

    it('sets the minimum: the table holds it once the PATCH has answered', async () => {
      const res = await p.admin('PATCH', `/admin/v1/clients/${p.moved.id}`, { minimumVersion: 'v2' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(JSON.parse(res.body).minimumVersion, 'v2');
      const table = JSON.parse((await p.admin('GET', '/admin/v1/decision-table')).body) as DecisionTable;
      const row = table.minimumVersions?.[p.moved.id];
      assert.equal(row?.version, 'v2');
      assert.equal(table.problems[row!.problem]?.status, 410);
      assert.equal(table.minimumVersions?.[p.other.id], undefined);
      // A patch without the member keeps it (JSON Merge Patch).
      await p.admin('PATCH', `/admin/v1/clients/${p.moved.id}`, { name: 'moved on' });
      assert.equal(JSON.parse((await p.admin('GET', `/admin/v1/clients/${p.moved.id}`)).body).minimumVersion, 'v2');
    });

    it("answers the client's calls to v1 with 410 and a link to v2; v2 and other clients as before", async () => {
      await p.plane().settle();
      const refused = await p.api('/api/v1/users', p.moved.key);
      const problem = assertProblem(refused as never, { status: 410, code: 'VERSION_RETIRED_FOR_CLIENT' });
      assert.equal(problem.type, '/problems/version-retired-for-client');
      assert.equal(problem.minimumVersion, 'v2');
      assert.match(String(problem.detail), /moved to v2/);
      assert.match(refused.headers.link ?? '', /<\/api\/v2\/openapi\.json>; rel="successor-version"/);
      assert.equal((await p.api('/api/v2/users', p.moved.key)).statusCode, 200);
      assert.equal((await p.api('/api/v1/users', p.other.key)).statusCode, 200);
    });

    it("the deprecation manifest's view for the client names its minimum and the versions it retires", async () => {
      const own = JSON.parse((await p.api('/api/deprecations', p.moved.key)).body) as Record<string, unknown>;
      assert.deepEqual(own.client, { id: p.moved.id, minimumVersion: 'v2', retired: ['v1'] });
      assert.ok(Array.isArray(own.deprecations));
      for (const key of [p.other.key, undefined]) {
        const shared = JSON.parse((await p.api('/api/deprecations', key)).body) as Record<string, unknown>;
        assert.equal(shared.client, undefined);
        assert.deepEqual(shared.deprecations, own.deprecations);
      }
    });

    it('null clears it: v1 answers the client again', async () => {
      const res = await p.admin('PATCH', `/admin/v1/clients/${p.moved.id}`, { minimumVersion: null });
      assert.equal(JSON.parse(res.body).minimumVersion, null);
      await p.plane().settle();
      assert.equal((await p.api('/api/v1/users', p.moved.key)).statusCode, 200);
    });
  });

  describe('v1 removed for everyone', () => {
    const p = setUp(start, removedV1);
    it("the client's own minimum answers first; everyone else gets the removal", async () => {
      await p.admin('PATCH', `/admin/v1/clients/${p.moved.id}`, { minimumVersion: 'v2' });
      await p.plane().settle();
      assertProblem((await p.api('/api/v1/users', p.moved.key)) as never, {
        status: 410,
        code: 'VERSION_RETIRED_FOR_CLIENT',
      });
      assertProblem((await p.api('/api/v1/users', p.other.key)) as never, { status: 410, code: 'VERSION_REMOVED' });
      assertProblem((await p.api('/api/v1/users')) as never, { status: 410, code: 'VERSION_REMOVED' });
    });
  });
}

/** A plane started for the enclosing `describe`, with two clients: `moved` and `other`. */
function setUp(start: Start, file: Record<string, unknown>) {
  let plane: Plane;
  const s = {
    moved: { id: '', key: '' },
    other: { id: '', key: '' },
    plane: () => plane,
    admin: (method: string, path: string, body?: unknown) =>
      call(plane.admin, path, { method, key: plane.adminKey, body }),
    api: (path: string, key?: string) => call(plane.base, path, key === undefined ? {} : { key }),
  };
  const client = async (name: string) => {
    const id = (JSON.parse((await s.admin('POST', '/admin/v1/clients', { name })).body) as { id: string }).id;
    const minted = await s.admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: id });
    return { id, key: (JSON.parse(minted.body) as { key: string }).key };
  };
  before(async () => {
    plane = await start(file);
    s.moved = await client('moved');
    s.other = await client('other');
  });
  after(async () => plane?.stop());
  return s;
}

const adminKey = 'test-admin-key-0123456789';

describe('minimum version per client: the service, as its own process', () => {
  minimumVersionSuite(async (file) => {
    const dir = mkdtempSync(join(tmpdir(), 'versionary-minimum-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(file));
    const service = await spawnService({
      env: {
        DATABASE_URL: 'sqlite::memory:',
        VERSIONARY_ADMIN_KEY: adminKey,
        VERSIONARY_CONFIG: join(dir, 'config.json'),
      },
    });
    return {
      base: service.base,
      admin: service.base,
      adminKey,
      settle: async () => {},
      stop: async () => {
        await service.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});

/** The Python upstream for a gateway or nginx, stopped with the plane. */
async function withUpstream<P extends { stop(): Promise<unknown> }>(
  start: (upstream: string) => Promise<P>,
): Promise<P> {
  const python: PythonUpstream = await startPythonUpstream();
  const plane = await start(python.url);
  const stop = plane.stop.bind(plane);
  return Object.assign(plane, {
    stop: async () => {
      await stop();
      await python.stop();
    },
  });
}

describe('minimum version per client: versionary gateway', () => {
  minimumVersionSuite((file) =>
    withUpstream(async (upstream) => {
      const gateway = await spawnGateway({ upstream, file });
      return { ...gateway, admin: gateway.base, adminKey: gatewayAdminKey, settle: async () => {} };
    }),
  );
});

describe('minimum version per client: nginx', () => {
  minimumVersionSuite((file) =>
    withUpstream(async (upstream) => {
      const nginx = await startDataPlane({ upstream, file });
      return { ...nginx, admin: nginx.control, adminKey: gatewayAdminKey, settle: () => nginx.sync() };
    }),
  );
});

describe('minimum version per client: set by the CLI on the database a running service shares', () => {
  const harness = createCliHarness('versionary-minimum-cli-');
  after(() => harness.cleanup());

  it('the service picks it up without a message on its change feed (its periodic read)', async () => {
    const made = await harness.cli(['clients', 'create', '--name', 'Moved', '--format', 'json']);
    const { id } = JSON.parse(made.stdout) as { id: string };
    const service = await spawnService({ env: { ...harness.env, VERSIONARY_ADMIN_KEY: adminKey } });
    const minimum = async () => {
      const res = await call(service.base, '/admin/v1/decision-table', { key: adminKey });
      return (JSON.parse(res.body) as DecisionTable).minimumVersions?.[id]?.version;
    };
    try {
      assert.equal(await minimum(), undefined);
      assert.equal((await harness.cli(['clients', 'set-minimum', id, 'v2'])).code, 0);
      // Asked twice a second: the admin key has a rate limit too.
      await eventually(async () => {
        await new Promise((r) => setTimeout(r, 500));
        return (await minimum()) === 'v2';
      }, 12_000);
    } finally {
      await service.stop();
    }
  });
});
