import { readFile } from 'node:fs/promises';
import { diffOpenApi } from '../src/core/compat/index.ts';
import type { BenchReport } from './types.ts';

const corpus = process.env.VERSIONARY_CORPUS ?? '/work/shared/corpus';
const pair = ['stripe-2021-06.json', 'stripe-2022-04.json'] as const;
const RUNS = 5;

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
  return {
    title: `diff: ${pair.join(' -> ')} (${(texts.reduce((n, s) => n + s.length, 0) / 1e6).toFixed(1)} MB)`,
    rows: [{
      'parse ms (both)': round(parseMs), 'diff ms (cold)': round(coldMs), [`diff ms (median of ${RUNS})`]: round(medianMs),
      changes: first.changes.length, breaking, risk, compatible, 'heap MB': round(heapMb),
    }],
    json: { files: pair, parseMs: round(parseMs), diffColdMs: round(coldMs), diffMedianMs: round(medianMs), runs: RUNS, changes: first.changes.length, breaking, risk, compatible, heapMb: round(heapMb) },
  };
}
