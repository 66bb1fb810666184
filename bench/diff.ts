import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffOpenApi } from '../src/core/compat/index.ts';
import type { BenchReport } from './types.ts';

const corpus = process.env.VERSIONARY_CORPUS ?? '/work/shared/corpus';
const pair = ['stripe-2021-06.json', 'stripe-2022-04.json'] as const;
const RUNS = 5;
/** End-to-end runs of the CLI per Node binary (a new process each: module loading counts). */
const CLI_RUNS = 3;
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'versionary.js');
/** Printed by the child as it exits: its own peak resident set, which no parent-side API reports. */
const peakHook = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\npeak-rss-kb '+process.resourceUsage().maxRSS+'\\n'))`;

/**
 * Diff the two Stripe OpenAPI releases: parse and diff timed apart, the diff once cold and
 * then {@link RUNS} times warm, plus the count of changes by level.
 *
 * @example
 * ```sh
 * npm run bench -- diff
 * ```
 */
export async function benchDiff(): Promise<BenchReport> {
  const texts = await Promise.all(pair.map((f) => readFile(`${corpus}/${f}`, 'utf8')));
  let t = performance.now();
  const [base, revision] = texts.map((text) => JSON.parse(text) as unknown);
  const parseMs = performance.now() - t;
  t = performance.now();
  const first = diffOpenApi({ base, revision });
  const coldMs = performance.now() - t;
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    diffOpenApi({ base, revision });
    warm.push(performance.now() - t);
  }
  warm.sort((a, b) => a - b);
  const medianMs = warm[Math.floor(warm.length / 2)] ?? coldMs;
  const heapMb = process.memoryUsage().heapUsed / 1e6;
  const { breaking, risk, compatible } = first.summary;
  const round = (n: number) => Math.round(n * 10) / 10;
  const cli = [];
  for (const node of nodeBinaries()) cli.push(await benchCli(node, first.changes.length));
  return {
    title: `diff: ${pair.join(' -> ')} (${(texts.reduce((n, s) => n + s.length, 0) / 1e6).toFixed(1)} MB); in process, then \`versionary diff --format json\` end to end (target: under 1 s and 300 MB)`,
    rows: [
      {
        case: 'in process',
        node: process.version,
        'parse ms (both)': round(parseMs),
        'diff ms (cold)': round(coldMs),
        [`diff ms (median of ${RUNS})`]: round(medianMs),
        changes: first.changes.length,
        breaking,
        risk,
        compatible,
        'heap MB': round(heapMb),
      },
      ...cli.map((c) => ({
        case: `CLI, ${CLI_RUNS} processes`,
        node: c.node,
        changes: c.changes,
        'wall s (best)': c.wallBest,
        'wall s (worst)': c.wallWorst,
        'peak RSS MB (worst)': c.peakRssMb,
        met: c.wallWorst < 1 && c.peakRssMb < 300 ? 'yes' : 'no',
      })),
    ],
    json: {
      files: pair,
      parseMs: round(parseMs),
      diffColdMs: round(coldMs),
      diffMedianMs: round(medianMs),
      runs: RUNS,
      changes: first.changes.length,
      breaking,
      risk,
      compatible,
      heapMb: round(heapMb),
      cli,
    },
  };
}

/**
 * The machine's Node, and each Node line CI keeps in its cache (`.ci/node-line.sh`), or the
 * binaries named in `VERSIONARY_BENCH_NODES` (colon-separated paths).
 */
function nodeBinaries(): string[] {
  if (process.env.VERSIONARY_BENCH_NODES) return process.env.VERSIONARY_BENCH_NODES.split(':').filter(Boolean);
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'versionary');
  return [
    process.execPath,
    ...['24', '22'].map((m) => join(cache, `node-${m}`, 'bin', 'node')).filter((p) => existsSync(p)),
  ];
}

async function benchCli(
  node: string,
  expectedChanges: number,
): Promise<{ node: string; changes: number; wallBest: number; wallWorst: number; peakRssMb: number }> {
  const walls: number[] = [];
  let peakKb = 0;
  let version = node;
  let changes = 0;
  for (let i = 0; i < CLI_RUNS; i++) {
    const t = performance.now();
    const { stdout, stderr } = await run(node, [
      '--import',
      peakHook,
      bin,
      'diff',
      `${corpus}/${pair[0]}`,
      `${corpus}/${pair[1]}`,
      '--format',
      'json',
    ]);
    walls.push((performance.now() - t) / 1000);
    peakKb = Math.max(peakKb, Number(/peak-rss-kb (\d+)/.exec(stderr)?.[1] ?? NaN));
    changes = (JSON.parse(stdout) as { changes: unknown[] }).changes.length;
    if (changes !== expectedChanges)
      throw new Error(`the CLI on ${node} found ${changes} changes, the library ${expectedChanges}`);
    version = (await run(node, ['--version'])).stdout.trim();
  }
  const r2 = (n: number) => Math.round(n * 100) / 100;
  return {
    node: version,
    changes,
    wallBest: r2(Math.min(...walls)),
    wallWorst: r2(Math.max(...walls)),
    peakRssMb: Math.round(peakKb / 1024),
  };
}

function run(node: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.on('error', reject);
    // `diff` exits 1 when it finds breaking changes: only a crash or no output is a failure here.
    child.on('close', (code) =>
      code !== null && code <= 1 && stdout
        ? resolve({ stdout, stderr })
        : reject(new Error(`${node} ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`)),
    );
  });
}
