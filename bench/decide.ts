import { deprecationHeaders } from '../src/core/lifecycle/index.ts';
import {
  decide,
  sampleSegments,
  type DecisionTable,
  type RequestFacts,
  type RouteRow,
} from '../src/core/rulebook/index.ts';
import type { BenchReport } from './types.ts';

const day = 86_400_000;
const ITERATIONS = Number(process.env.BENCH_DECIDE_ITERATIONS ?? 2_000_000);
const compiledAt = Date.UTC(2026, 0, 15);

/** A v1 deprecated as the reference service deprecates it: every header, a successor and the manifest. */
function deprecatedRow(template: string): RouteRow {
  const schedule = { version: 'v1', deprecatedAt: compiledAt - 30 * day, sunsetAt: compiledAt + 150 * day };
  const segments = sampleSegments((t) => {
    const { headers, changesAt } = deprecationHeaders({
      schedule,
      clock: { now: () => t },
      migrationUrl: '/api/versions/v1/migration-guide',
      successorUrl: '/api/v2/openapi.json',
      replacement: 'v2',
    });
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    lower.link = `${lower.link}, </api/deprecations>; rel="deprecation"; type="application/json"`;
    return t > schedule.sunsetAt
      ? { outcome: 'refuse', headers: lower, problem: 'gone', until: Infinity }
      : { outcome: 'allow', headers: lower, until: changesAt ?? Infinity };
  }, compiledAt);
  return { method: 'GET', template, row: { segments, deprecated: true }, elements: [], brownouts: [] };
}

/** A table with v1 deprecated and v2 current, 12 operations each. */
function benchTable(): DecisionTable {
  const templates = ['/users', '/users/{id}', '/users/{id}/posts', '/posts', '/posts/{id}', '/orders'];
  const routes = (deprecated: boolean) =>
    templates.flatMap((template) =>
      ['GET', 'DELETE'].map((method) =>
        deprecated
          ? { ...deprecatedRow(template), method }
          : {
              method,
              template,
              row: { segments: [{ from: 0, outcome: 'allow' as const, headers: {} }], deprecated: false },
              elements: [],
              brownouts: [],
            },
      ),
    );
  return {
    format: 1,
    generation: 1,
    compiledAt,
    recompileAt: null,
    prefix: '/api',
    vendor: 'versionary',
    versions: ['v1', 'v2'],
    listHeaders: [{ from: 0, headers: { 'api-supported-versions': 'v2', 'api-deprecated-versions': 'v1' } }],
    versionRows: {},
    routes: { v1: routes(true), v2: routes(false) },
    policies: { roles: {} },
    problems: {},
  };
}

function nsPerDecision(table: DecisionTable, facts: RequestFacts): number {
  for (let i = 0; i < 100_000; i++) decide(facts, table);
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < ITERATIONS; i++) sink += decide(facts, table).deprecated ? 1 : 0;
  const ns = Number(process.hrtime.bigint() - start) / ITERATIONS;
  if (sink !== ITERATIONS && facts.version === 'v1') throw new Error('the v1 route is not deprecated');
  return ns;
}

/**
 * `decide` on a compiled table, in process: a deprecated v1 route with its headers (the target is
 * under 2 µs per request), the same route in its `Warning` days (the `{days}` count substituted),
 * and a current v2 route.
 *
 * @example
 * ```sh
 * npm run bench -- decide
 * ```
 */
export async function benchDecide(): Promise<BenchReport> {
  const table = benchTable();
  const facts = (version: string, now: number): RequestFacts => ({
    method: 'GET',
    path: `/api/${version}/users/7`,
    version,
    versionSource: 'path',
    template: '/users/{id}',
    principal: { client: 'cl_bench', roles: ['read'] },
    now,
  });
  const cases: Array<[string, RequestFacts]> = [
    ['v1 deprecated, with headers', facts('v1', compiledAt + day)],
    ['v1 deprecated, Warning with {days}', facts('v1', compiledAt + 140 * day)],
    ['v2 current', facts('v2', compiledAt + day)],
  ];
  const rows = cases.map(([name, f]) => ({ case: name, 'ns/decision': Math.round(nsPerDecision(table, f)) }));
  return { title: `decide on a compiled table (${ITERATIONS} decisions per case)`, rows, json: { rows } };
}
