import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElementDeprecation } from '../../../core/lifecycle/index.ts';
import {
  decisionTableFormat,
  type DecisionTable,
  type DecisionTableSource,
  type ProblemRow,
  type RuleSegment,
} from '../../../core/rulebook/index.ts';
import { closedProblem } from '../../../core/rulebook/problems.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { tableClientElements } from './client-verdict.ts';

const day = 86_400_000;
const t0 = Date.UTC(2027, 0, 1);
const removedAt = t0 + 10 * day;
const closedAt = t0 + 5 * day;
const problem = (code: string, status: number): ProblemRow => ({
  status,
  headers: {},
  body: { type: `/problems/${code}`, title: code, status, detail: code, code },
});
const rows = { gone: problem('GONE', 410), closed: problem('CLOSED_TO_NEW_CLIENTS', 403) };
const errors = new Map<ProblemRow, VersionaryError>([
  [rows.gone, new VersionaryError({ code: ErrorCode.VersionRemoved, detail: 'gone' })],
  [rows.closed, closedProblem({ what: 'v1', at: closedAt, replacement: 'v2', guide: '/guide' })],
]);
// v1 GET /users: deprecated, closed to new clients from t0 + 5 days (acme had called it), removed
// from t0 + 10 days except for globex (which had not called it), whose extended access runs to
// t0 + 40 days. Its `nickname`
// field has the same shape: acme may use it past its sunset.
const publicSegments: RuleSegment[] = [
  { from: 0, outcome: 'allow', headers: { deprecation: '@1', sunset: 'public' } },
  { from: removedAt, outcome: 'refuse', headers: { sunset: 'public' }, problem: 'gone' },
];
const ownSegments = (until: number): RuleSegment[] => [
  { from: 0, outcome: 'allow', headers: { deprecation: '@1', sunset: `own ${until}` } },
  { from: until, outcome: 'refuse', headers: {}, problem: 'gone' },
];
const table: DecisionTable = {
  format: decisionTableFormat,
  generation: 1,
  compiledAt: t0,
  recompileAt: null,
  prefix: '/api',
  vendor: 'acme',
  versions: ['v1', 'v2'],
  listHeaders: [{ from: 0, headers: {} }],
  versionRows: { v1: { segments: publicSegments, deprecated: true } },
  routes: {
    v1: [
      {
        method: 'GET',
        template: '/users',
        row: {
          segments: publicSegments,
          deprecated: true,
          extendedAccess: { cl_globex: { until: t0 + 40 * day, segments: ownSegments(t0 + 40 * day) } },
          closings: [{ at: closedAt, allowed: ['cl_acme'], problem: 'closed' }],
        },
        elements: [
          {
            name: 'User.nickname',
            kind: 'field',
            field: 'nickname',
            segments: publicSegments,
            extendedAccess: { cl_acme: { until: t0 + 60 * day, segments: ownSegments(t0 + 60 * day) } },
            closings: [{ at: closedAt, allowed: ['cl_acme'], problem: 'closed' }],
          },
        ],
        brownouts: [],
      },
    ],
  },
  policies: { roles: {} },
  problems: rows,
};
let now = t0;
const clock = { now: () => now };
const tables: DecisionTableSource = { latest: () => table, current: async () => table, errorOf: (p) => errors.get(p) };
test('client elements: closed to new clients before the sunset, an own date past it', async () => {
  const nickname: ElementDeprecation = {
    kind: 'field',
    version: 'v1',
    element: 'User.nickname',
    schema: 'User',
    field: 'nickname',
    replacement: 'displayName',
    deprecatedAt: t0 - 200 * day,
    sunsetAt: removedAt,
    extendedAccessUntil: t0 + 100 * day,
    closedToNewClientsAt: closedAt,
  };
  const view = (clientId: string | undefined) =>
    tableClientElements(tables, clock)([nickname], clientId, () => '/guide');
  now = t0 + 6 * day;
  assert.deepEqual(await view('cl_acme'), [nickname]);
  for (const who of ['cl_globex', undefined])
    await assert.rejects(view(who), (e: Error & { code?: string; extensions?: Record<string, unknown> }) => {
      assert.equal(e.code, 'CLOSED_TO_NEW_CLIENTS');
      return true;
    });
  // Past the sunset the removal wins over the closing: only the client with extended access sees it otherwise.
  now = t0 + 20 * day;
  assert.deepEqual(await view('cl_acme'), [{ ...nickname, sunsetAt: t0 + 60 * day }]);
  assert.deepEqual(await view('cl_globex'), [nickname]);
  assert.deepEqual(await view(undefined), [nickname]);
  now = t0 + 61 * day;
  assert.deepEqual(await view('cl_acme'), [nickname], 'its own date has passed');
});
