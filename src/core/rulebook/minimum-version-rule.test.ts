import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decide } from './decide.ts';
import type { DecisionTable, RequestFacts } from './table.ts';

const allowAll = { segments: [{ from: 0, outcome: 'allow' as const, headers: {} }], deprecated: false };
const retired = {
  status: 410,
  headers: { link: '</api/v2/openapi.json>; rel="successor-version"' },
  body: {
    type: '/problems/version-retired-for-client',
    title: 'API version retired for this client',
    status: 410,
    detail: 'This client has moved to v2.',
    code: 'VERSION_RETIRED_FOR_CLIENT',
    minimumVersion: 'v2',
  },
};

const table: DecisionTable = {
  format: 1,
  generation: 1,
  compiledAt: 0,
  recompileAt: null,
  prefix: '/api',
  vendor: 'versionary',
  versions: ['v1', 'v2', 'v3'],
  listHeaders: [{ from: 0, headers: {} }],
  versionRows: { v1: allowAll, v2: allowAll, v3: allowAll },
  routes: { v1: [], v2: [], v3: [] },
  policies: { roles: {} },
  minimumVersions: { cl_moved: { version: 'v2', problem: 'p1' }, cl_gone: { version: 'v9', problem: 'p1' } },
  problems: { p1: retired },
};

const call = (version: string, client?: string): RequestFacts => ({
  method: 'GET',
  path: `/api/${version}/users`,
  version,
  versionSource: 'path',
  now: 0,
  ...(client ? { principal: { client, roles: ['read'] } } : {}),
});

describe('minimumVersionRule', () => {
  it('refuses a client its versions older than its minimum, with the 410 and its successor link', () => {
    const d = decide(call('v1', 'cl_moved'), table);
    assert.equal(d.outcome, 'refuse');
    if (d.outcome !== 'refuse') return;
    assert.equal(d.rule, 'minimum_version');
    assert.equal(d.problem.status, 410);
    assert.equal(d.problem.body.type, '/problems/version-retired-for-client');
    assert.equal(d.problem.headers.link, '</api/v2/openapi.json>; rel="successor-version"');
  });

  it('serves the minimum itself and the versions after it', () => {
    assert.equal(decide(call('v2', 'cl_moved'), table).outcome, 'allow');
    assert.equal(decide(call('v3', 'cl_moved'), table).outcome, 'allow');
  });

  it('leaves other clients, anonymous calls and a minimum the table does not know alone', () => {
    assert.equal(decide(call('v1', 'cl_other'), table).outcome, 'allow');
    assert.equal(decide(call('v1'), table).outcome, 'allow');
    assert.equal(decide(call('v1', 'cl_gone'), table).outcome, 'allow');
    const { minimumVersions: _, ...older } = table;
    assert.equal(decide(call('v1', 'cl_moved'), older).outcome, 'allow', 'a table without the member');
  });

  it('runs after the version rule: an unknown version is still the 404', () => {
    const d = decide(call('v7', 'cl_moved'), table);
    assert.equal(d.outcome === 'refuse' && d.rule, 'version');
  });
});
