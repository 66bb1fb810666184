import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brownoutRule } from './rules.ts';
import type { BrownoutRow, DecisionTable, RouteRow } from './table.ts';

const hour = 3_600_000;
const gone = {
  status: 410,
  headers: {},
  body: { type: '/problems/version-removed', title: 'Gone', status: 410, detail: 'x', code: 'VERSION_REMOVED' },
};
// A brownout of the whole of v1 reaches each operation; a rehearsal, its client's endpoint only.
const global: BrownoutRow = { id: 'g', startsAt: 10 * hour, endsAt: 11 * hour, problem: 'g' };
const rehearsal: BrownoutRow = { id: 'r', startsAt: 20 * hour, endsAt: 21 * hour, clients: ['acme'], problem: 'r' };
const targeted: BrownoutRow = {
  id: 't',
  startsAt: 30 * hour,
  endsAt: 31 * hour,
  clients: ['acme'],
  problem: 't',
  spared: { extended: 40 * hour },
};
const route = (method: string, brownouts: BrownoutRow[]): RouteRow => ({
  method,
  template: '/users',
  row: { segments: [{ from: 0, outcome: 'allow', headers: {} }], deprecated: true },
  elements: [],
  brownouts,
});
const table: DecisionTable = {
  format: 1,
  generation: 1,
  compiledAt: 0,
  recompileAt: null,
  prefix: '/api',
  vendor: 'v',
  versions: ['v1', 'v2'],
  listHeaders: [],
  versionRows: {},
  routes: {
    v1: [route('GET', [global, rehearsal, targeted]), route('POST', [global])],
    v2: [route('GET', [])],
  },
  policies: { roles: {} },
  problems: { g: gone, r: gone, t: gone },
};
const id = (o: { now: number; method?: string; version?: string; client?: string }) => {
  const decision = brownoutRule(
    {
      method: o.method ?? 'GET',
      path: '/api/v1/users',
      version: o.version ?? 'v1',
      template: '/users',
      now: o.now,
      ...(o.client ? { principal: { client: o.client, roles: [] } } : {}),
    },
    table,
  );
  return decision.outcome === 'refuse' ? (decision.problem.headers['retry-after'] ?? 'refused') : undefined;
};

describe('brownoutRule', () => {
  it('refuses inside its window only, end excluded, with retry-after counting to its end', () => {
    assert.equal(id({ now: 10 * hour - 1 }), undefined);
    assert.equal(id({ now: 10 * hour }), '3600');
    assert.equal(id({ now: 11 * hour - 1 }), '1');
    assert.equal(id({ now: 11 * hour }), undefined);
    assert.equal(id({ now: 10 * hour, version: 'v2' }), undefined);
    assert.equal(id({ now: 10 * hour, method: 'HEAD' }), '3600', 'HEAD is judged as GET');
  });

  it('applies a rehearsal to its own client and endpoint alone', () => {
    const now = 20 * hour + 1;
    assert.notEqual(id({ now, client: 'acme' }), undefined);
    assert.equal(id({ now, client: 'other' }), undefined);
    assert.equal(id({ now, client: 'acme', method: 'POST' }), undefined);
  });

  it('refuses its targets only, never a call without a client, and spares extended access', () => {
    const now = 30 * hour;
    assert.notEqual(id({ now, client: 'acme' }), undefined);
    assert.equal(id({ now, client: 'globex' }), undefined);
    assert.equal(id({ now }), undefined);
    const both = { ...targeted, clients: ['acme', 'extended'] };
    const spared = { ...table, routes: { ...table.routes, v1: [route('GET', [both])] } };
    const at = (client: string, now: number) =>
      brownoutRule(
        { method: 'GET', path: '', version: 'v1', template: '/users', now, principal: { client, roles: [] } },
        spared,
      ).outcome;
    assert.equal(at('extended', 30 * hour), 'allow', 'its own date is after now');
    assert.equal(at('acme', 30 * hour), 'refuse');
  });
});
