import type { BenchReport } from './types.ts';

/** Placeholder until the load test lands. */
export async function benchLoad(): Promise<BenchReport> {
  return { title: 'load', rows: [], json: {} };
}
