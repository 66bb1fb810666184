import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startLifecycleTraffic, type LifecycleTraffic } from './lifecycle-traffic.ts';

interface Panel {
  title: string;
  targets?: Array<{ expr?: string }>;
}

const dashboard = JSON.parse(
  readFileSync(new URL('../../examples/grafana/versionary-dashboard.json', import.meta.url), 'utf8'),
) as { panels: Panel[] };

// PromQL words that are not metric names: aggregation modifiers, set operators, `offset`.
const keywords = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
]);

/**
 * The metric names a PromQL expression reads: the identifiers left once label matchers, ranges,
 * strings, grouping lists and Grafana's `$variables` are taken out, that are not a function call
 * (followed by `(`) or a keyword.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ');
  const names = [...bare.matchAll(/(?<![\w:.])([A-Za-z_:][\w:]*)\s*(\()?/g)]
    .filter((m) => m[2] === undefined && !keywords.has(m[1]!))
    .map((m) => m[1]!);
  return [...new Set(names)];
}

/** The names that have at least one sample in a Prometheus text exposition. */
function sampled(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.split(/[{ ]/, 1)[0]!),
  );
}

describe('the Grafana dashboard in examples/grafana reads only metrics the service exports', () => {
  let t: LifecycleTraffic;
  let exported: Set<string>;
  before(async () => {
    t = await startLifecycleTraffic();
    const { key } = await t.client('dashboard');
    // A deprecated call, a current one, and one a rule refuses (v1 closed to new clients after a day).
    assert.equal((await t.call(key, '/api/v1/users')).status, 200);
    assert.equal((await t.call(key, '/api/v2/users')).status, 200);
    t.at(2);
    const late = await t.client('late');
    assert.equal((await t.call(late.key, '/api/v1/users')).status, 403);
    exported = sampled(await t.scrape());
  });
  after(() => t.service.stop());

  it('has the four panels, each with a query', () => {
    const titles = dashboard.panels.map((p) => p.title);
    for (const title of [
      'Calls per version',
      'Deprecated calls per client',
      'Days to each sunset',
      'Refused calls by decision',
    ])
      assert.ok(titles.includes(title), `a panel "${title}"`);
    for (const panel of dashboard.panels) {
      const exprs = (panel.targets ?? []).map((target) => target.expr ?? '').filter((e) => e.trim() !== '');
      assert.ok(exprs.length > 0, `panel "${panel.title}" has a query`);
      for (const expr of exprs) assert.ok(metricNames(expr).length > 0, `"${expr}" reads a metric`);
    }
  });

  it("names in each panel's queries metrics that have samples at /metrics", () => {
    for (const panel of dashboard.panels)
      for (const { expr = '' } of panel.targets ?? [])
        for (const name of metricNames(expr))
          assert.ok(exported.has(name), `panel "${panel.title}" reads ${name}, which /metrics does not export`);
  });

  it('finds the metric names of a query, not its functions, labels or variables', () => {
    assert.deepEqual(
      metricNames(
        '(max by (version) (a_seconds{job=~"$job", x="y(z)"}) - time()) / 86400 + on (v) b_total[$__rate_interval] offset 5m',
      ),
      ['a_seconds', 'b_total'],
    );
  });
});
