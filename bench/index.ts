import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchPart, BenchReport } from './types.ts';

/**
 * Every bench part by name: `npm run bench` runs all, `npm run bench -- diff` one.
 *
 * @example
 * ```ts
 * parts.http = async () => (await import('./http.ts')).benchHttp();
 * ```
 */
const parts: Record<string, BenchPart> = {
  diff: async () => (await import('./diff.ts')).benchDiff(),
  started: async () => (await import('./started.ts')).benchStarted(),
  http: async () => (await import('./http.ts')).benchHttp(),
  responses: async () => (await import('./responses.ts')).benchResponses(),
  load: async () => (await import('./load.ts')).benchLoad(),
  usage: async () => (await import('./usage.ts')).benchUsage(),
  sqlite: async () => (await import('./sqlite-drivers.ts')).benchSqliteDrivers(),
  cluster: async () => (await import('./cluster.ts')).benchCluster(),
  gateway: async () => (await import('./gateway.ts')).benchGateway(),
  nginx: async () => (await import('./nginx.ts')).benchNginx(),
  derived: async () => (await import('./derived.ts')).benchDerived(),
  decide: async () => (await import('./decide.ts')).benchDecide(),
  floors: async () => (await import('./floors.ts')).benchFloors(printTable),
};

const inFloors = new Set(['started', 'gateway', 'nginx']);

const resultsFile = join(dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');

async function run(names: string[]): Promise<number> {
  const unknown = names.filter((n) => !Object.hasOwn(parts, n));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown bench part(s): ${unknown.join(', ')}. Known: ${Object.keys(parts).join(', ')}.\n`);
    return 2;
  }
  // Every part once: `floors` runs the three data planes' parts (started, gateway, nginx) and puts their goals side by side.
  const selected = names.length === 0 ? Object.keys(parts).filter((n) => !inFloors.has(n)) : names;
  const results: Record<string, unknown> = {};
  for (const name of selected) {
    const report = await (parts[name] as BenchPart)();
    printTable(report);
    results[name] = { ...report.json, at: new Date().toISOString(), node: process.version };
  }
  await mergeResults(results);
  process.stdout.write(`\nResults merged into ${resultsFile}\n`);
  return 0;
}

function printTable(report: BenchReport): void {
  const columns = [...new Set(report.rows.flatMap((r) => Object.keys(r)))];
  const widths = columns.map((c) => Math.max(c.length, ...report.rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  process.stdout.write(`\n${report.title}\n${line(columns)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const row of report.rows) process.stdout.write(`${line(columns.map((c) => String(row[c] ?? '')))}\n`);
}

/** Other parts' results survive: each run replaces only the parts it ran. */
async function mergeResults(results: Record<string, unknown>): Promise<void> {
  let existing: Record<string, unknown> = {};
  try {
    existing = JSON.parse(await readFile(resultsFile, 'utf8')) as Record<string, unknown>;
  } catch {
    existing = {};
  }
  await mkdir(dirname(resultsFile), { recursive: true });
  await writeFile(resultsFile, `${JSON.stringify({ ...existing, ...results }, null, 2)}\n`);
}

process.exitCode = await run(process.argv.slice(2));
