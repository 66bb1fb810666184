import { readFileSync, writeFileSync } from 'node:fs';
import { createFixedClock } from '../src/core/clock/index.ts';
import { describeRequestSteps } from '../src/http/pipeline/request-pipeline.ts';
import { stageOf } from '../src/http/pipeline/phases.ts';
import { loadConfig } from '../src/loop/settings.ts';
import { loopSteps } from '../src/loop/steps.ts';
import { buildApp } from '../src/compose/build-app.ts';
import { referenceProduct } from '../src/reference/product.ts';
import { openSqliteStorage } from '../src/storage/sqlite/open-sqlite-storage.ts';

// The table of docs/architecture.md, generated from what the reference service compiles:
// `npm run steps-table` rewrites it, `--check` fails when the doc differs (a test runs that).
const doc = new URL('../docs/architecture.md', import.meta.url);
const start = '<!-- steps-table:start (npm run steps-table) -->';
const end = '<!-- steps-table:end -->';
const routes: Array<[string, string, string]> = [
  ['GET', '/api/v1/users/:id', 'GET /api/v1/users/{id}'],
  ['GET', '/api/v2/users/:id', 'GET /api/v2/users/{id}'],
  ['POST', '/api/v2/users', 'POST /api/v2/users'],
  ['GET', '/api/versions', 'GET /api/versions'],
  ['POST', '/admin/v1/clients', 'POST /admin/v1/clients'],
];

/** The markdown table: every step of the list, its stage, and which of the sample routes run it. */
export async function renderStepsTable(): Promise<string> {
  const storage = await openSqliteStorage({ path: ':memory:' });
  const config = loadConfig({ env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }, readFile: () => '' });
  const app = await buildApp({
    product: referenceProduct(),
    config,
    storage,
    clock: createFixedClock(Date.UTC(2026, 5, 1)),
  });
  try {
    await app.ready();
    const compiled = routes.map(([method, url]) => new Set(describeRequestSteps(app, url, method)));
    const head = `| Step | Fastify stage | ${routes.map(([, , label]) => `\`${label}\``).join(' | ')} |`;
    const rule = `|---|---|${routes.map(() => ':-:').join('|')}|`;
    const rows = loopSteps.map(({ phase, name }) => {
      const step = `${phase}:${name}`;
      return `| \`${step}\` | ${stageOf[phase]} | ${compiled.map((set) => (set.has(step) ? '✓' : '')).join(' | ')} |`;
    });
    return [head, rule, ...rows].join('\n');
  } finally {
    await app.close();
    await storage.close();
  }
}

/** docs/architecture.md with `table` between the markers. */
export function withTable(text: string, table: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1) throw new Error(`docs/architecture.md has no ${start} … ${end} markers.`);
  return `${text.slice(0, from + start.length)}\n\n${table}\n\n${text.slice(to)}`;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const text = readFileSync(doc, 'utf8');
  const next = withTable(text, await renderStepsTable());
  if (process.argv.includes('--check')) {
    if (next !== text) {
      console.error('docs/architecture.md: the step table differs from the pipeline; run `npm run steps-table`.');
      process.exitCode = 1;
    }
  } else writeFileSync(doc, next);
}
