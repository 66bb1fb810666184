import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deprecationHeaders } from '../lifecycle/index.ts';
import { decide } from './decide.ts';
import { rateCounterKey, ratePolicyOf } from './rules.ts';
import { sampleSegments } from './sample-segments.ts';
import type { DecisionTable, ProblemRow, RuleSegment } from './table.ts';

const day = 86_400_000;
const sunsetAt = Date.UTC(2026, 6, 1);
const problem = (status: number, code: string): ProblemRow => ({
  status,
  headers: {},
  body: { type: `/problems/${code}`, title: code, status, detail: `${code} {version}`, code },
});

/** A schedule's segments as core words them: allowed with headers, refused after the sunset. */
function scheduleSegments(sunset: number): RuleSegment[] {
  const schedule = { version: 'v1', deprecatedAt: sunset - 200 * day, sunsetAt: sunset };
  return sampleSegments(
    (t) => {
      const { headers, changesAt } = deprecationHeaders({ schedule, clock: { now: () => t }, migrationUrl: '/guide' });
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      return t > sunset
        ? { outcome: 'refuse', headers: lower, problem: 'gone', until: Infinity }
        : { outcome: 'allow', headers: lower, until: changesAt ?? sunset + 1 };
    },
    sunset - 100 * day,
  );
}

const table: DecisionTable = {
  format: 1,
  generation: 1,
  compiledAt: 0,
  recompileAt: null,
  prefix: '/api',
  vendor: 'versionary',
  versions: ['v1', 'v2'],
  listHeaders: [{ from: 0, headers: { 'api-supported-versions': 'v2' } }],
  versionRows: {
    v1: { segments: scheduleSegments(sunsetAt), deprecated: true },
    v2: { segments: [{ from: 0, outcome: 'allow', headers: {} }], deprecated: false },
  },
  routes: {
    v1: [
      {
        method: 'GET',
        template: '/users/{id}',
        row: {
          segments: scheduleSegments(sunsetAt),
          deprecated: true,
          extendedAccess: { acme: { until: sunsetAt + 60 * day, segments: scheduleSegments(sunsetAt + 60 * day) } },
          closings: [{ at: sunsetAt - 50 * day, allowed: ['acme', 'old'], problem: 'closed' }],
        },
        elements: [
          {
            name: 'GET /users/{id}?fields',
            kind: 'parameter',
            parameter: 'fields',
            segments: [
              { from: 0, outcome: 'allow', headers: { sunset: 'element' } },
              { from: sunsetAt - 40 * day, outcome: 'refuse', headers: {}, problem: 'element' },
            ],
          },
        ],
        brownouts: [
          {
            id: 'b',
            startsAt: sunsetAt - 20 * day,
            endsAt: sunsetAt - 20 * day + 3_600_000,
            problem: 'brownout',
            spared: { acme: sunsetAt + 60 * day },
          },
        ],
      },
    ],
    v2: [],
  },
  policies: {
    base: { name: 'default', max: 100, windowSeconds: 60, policyField: '"default";q=100;w=60' },
    roles: { write: { name: 'write', max: 1000, windowSeconds: 60, policyField: '"write";q=1000;w=60' } },
  },
  problems: {
    gone: problem(410, 'VERSION_REMOVED'),
    closed: problem(403, 'CLOSED_TO_NEW_CLIENTS'),
    element: problem(400, 'ELEMENT_REMOVED'),
    brownout: problem(410, 'VERSION_REMOVED'),
    'version-missing': problem(400, 'VERSION_MISSING'),
    'version-unknown': problem(404, 'VERSION_UNKNOWN'),
    'method-not-allowed': {
      status: 405,
      headers: { allow: '{allow}' },
      body: {
        type: '/problems/method-not-allowed',
        title: 'Method not allowed',
        status: 405,
        detail: '{method} is not supported here. Allowed: {allow}.',
        code: 'METHOD_NOT_ALLOWED',
      },
    },
  },
};

const facts = (now: number, more: Partial<Parameters<typeof decide>[0]> = {}) => ({
  method: 'GET',
  path: '/api/v1/users/7',
  version: 'v1',
  versionSource: 'path' as const,
  template: '/users/{id}',
  now,
  ...more,
});

describe('decide', () => {
  it('allows a deprecated route with its headers, HEAD judged as GET', () => {
    const d = decide(facts(sunsetAt - 90 * day, { method: 'HEAD' }), table);
    assert.equal(d.outcome, 'allow');
    assert.equal(d.headers.sunset, '2026-07-01T00:00:00.000Z');
    assert.equal(d.headers.warning, undefined);
    assert.equal(d.deprecated, true);
  });

  it('counts the Warning down in days, then says less than 1 day', () => {
    const at = (n: number) =>
      decide(facts(sunsetAt - n, { principal: { client: 'old', roles: [] } }), table).headers.warning ?? '';
    assert.match(at(10 * day), /removed in 10 days, at 2026-07-01/);
    assert.match(at(10 * day - 1), /removed in 9 days/);
    assert.match(at(1.5 * day), /removed in 1 day,/);
    assert.match(at(1), /less than 1 day/);
    // One segment counts the days down: no headers, {days}, 1 day, less than 1 day, removed.
    const segments = table.routes.v1![0]!.row.segments;
    assert.equal(segments.length, 5);
    assert.match(segments[1]!.headers.warning!, /in \{days\} days/);
  });

  it('refuses past the sunset, but serves a client with extended access until its own date', () => {
    const after = sunsetAt + day;
    const refused = decide(facts(after), table);
    assert.equal(refused.outcome, 'refuse');
    assert.equal(refused.outcome === 'refuse' && refused.problem.status, 410);
    assert.equal(refused.headers.sunset, '2026-07-01T00:00:00.000Z', 'the 410 keeps its lifecycle headers');
    const acme = decide(facts(after, { principal: { client: 'acme', roles: [] } }), table);
    assert.equal(acme.outcome, 'allow');
    assert.equal(acme.rule, 'extended_access');
    assert.equal(acme.headers.sunset, new Date(sunsetAt + 60 * day).toISOString());
    assert.equal(
      decide(facts(sunsetAt + 61 * day, { principal: { client: 'acme', roles: [] } }), table).outcome,
      'refuse',
    );
  });

  it('refuses clients not allowed past a closing, and anonymous calls', () => {
    const now = sunsetAt - 45 * day;
    const rule = (client?: string) => {
      const d = decide(facts(now, client ? { principal: { client, roles: [] } } : {}), table);
      return d.outcome === 'refuse' ? d.rule : 'allowed';
    };
    assert.equal(rule('old'), 'allowed');
    assert.equal(rule('new'), 'closed_to_new_clients');
    assert.equal(rule(), 'closed_to_new_clients');
    assert.equal(
      decide(facts(sunsetAt - 51 * day, { principal: { client: 'new', roles: [] } }), table).outcome,
      'allow',
    );
  });

  it('judges a deprecated parameter that is used, and refuses it past its sunset', () => {
    const old = { principal: { client: 'old', roles: [] as string[] } };
    assert.equal(
      decide(facts(sunsetAt - 80 * day, { ...old, parameters: ['fields'] }), table).headers.sunset,
      'element',
    );
    const past = decide(facts(sunsetAt - 30 * day, { ...old, parameters: ['fields'] }), table);
    assert.equal(past.outcome === 'refuse' && past.rule, 'element_removed');
    assert.equal(decide(facts(sunsetAt - 30 * day, { ...old, parameters: ['page'] }), table).outcome, 'allow');
  });

  it('refuses during a brownout with retry-after, sparing a client with extended access', () => {
    const now = sunsetAt - 20 * day + 1000;
    const d = decide(facts(now, { principal: { client: 'old', roles: [] } }), table);
    assert.equal(d.outcome, 'refuse');
    assert.equal(d.outcome === 'refuse' && d.problem.headers['retry-after'], '3599');
    assert.equal(decide(facts(now, { principal: { client: 'acme', roles: [] } }), table).outcome, 'allow');
  });

  it('refuses an unversioned or unknown version, naming it', () => {
    const missing = decide({ method: 'GET', path: '/api/users', now: 0 }, table);
    assert.equal(missing.outcome === 'refuse' && missing.problem.status, 400);
    const unknown = decide(facts(0, { version: 'v9' }), table);
    assert.equal(unknown.outcome === 'refuse' && unknown.problem.body.detail, 'VERSION_UNKNOWN v9');
  });

  it('judges a path with no route by the version as a whole', () => {
    assert.equal(decide(facts(sunsetAt + day, { template: undefined }), table).outcome, 'refuse');
    assert.equal(decide(facts(sunsetAt + day, { version: 'v2', template: '/nothing' }), table).outcome, 'allow');
  });
});

describe('ratePolicyOf', () => {
  it('gives the most generous policy among the roles, the base without a principal', () => {
    assert.equal(ratePolicyOf({}, table)?.name, 'default');
    assert.equal(ratePolicyOf({ principal: { client: 'a', roles: ['read', 'write'] } }, table)?.name, 'write');
    assert.equal(ratePolicyOf({ principal: { client: 'a', roles: ['read'] } }, table)?.name, 'default');
    assert.equal(ratePolicyOf({}, { ...table, policies: { roles: {} } }), undefined);
  });
});

describe('rateCounterKey', () => {
  it('is one counter per client and policy', () => {
    const read = { name: 'read' };
    assert.equal(rateCounterKey('cl_a', read), rateCounterKey('cl_a', { name: 'read' }));
    assert.notEqual(rateCounterKey('cl_a', read), rateCounterKey('cl_a', { name: 'default' }));
    assert.notEqual(rateCounterKey('cl_a', read), rateCounterKey('cl_b', read));
  });
});

describe('methodRule', () => {
  const v2 = (method: string, methods: string[] | undefined) =>
    decide(
      { method, path: '/api/v2/users', version: 'v2', versionSource: 'path', now: 0, ...(methods ? { methods } : {}) },
      table,
    );
  it('serves a declared method (HEAD with GET) and OPTIONS, refuses any other and TRACE with Allow', () => {
    assert.equal(v2('GET', ['GET', 'POST']).outcome, 'allow');
    assert.equal(v2('HEAD', ['GET']).outcome, 'allow');
    assert.equal(v2('OPTIONS', ['GET']).outcome, 'allow');
    assert.equal(v2('QUERY', ['GET', 'QUERY']).outcome, 'allow', 'a method is known because a route declares it');
    for (const method of ['PROPFIND', 'TRACE', 'PUT']) {
      const decision = v2(method, ['GET', 'POST', 'TRACE']);
      assert.equal(decision.outcome, 'refuse', method);
      if (decision.outcome !== 'refuse') continue;
      assert.equal(decision.problem.status, 405);
      assert.equal(decision.problem.headers.allow, 'GET, POST, HEAD, OPTIONS');
      assert.equal(decision.problem.body.detail, `${method} is not supported here. Allowed: GET, POST, HEAD, OPTIONS.`);
    }
    assert.equal(v2('PROPFIND', undefined).outcome, 'allow', "a path the data plane routes nowhere is not the rule's");
  });
});
