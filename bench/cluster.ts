import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { spawnServer } from './servers/spawn-server.ts';
import type { BenchReport } from './types.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? '10');
const warmup = Number(process.env.BENCH_WARMUP ?? '3');
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? '3'));
const connections = Number(process.env.BENCH_CONNECTIONS ?? '50');

/**
 * The service as 1 and 2 processes on one port (`node:cluster`) over one SQLite WAL file, driven
 * with `GET /api/v2/users/{id}` (authenticated). Rounds alternate 1 and 2 processes; medians are
 * reported. The load generator runs on the same cores, so on a 2-core machine two workers and
 * autocannon compete for them: the scaling factor here is a floor, not what two free cores give.
 *
 * @example
 * ```sh
 * npm run bench -- cluster
 * ```
 */
export async function benchCluster(): Promise<BenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-cluster-'));
  const runs: Record<number, number[]> = { 1: [], 2: [] };
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const workers of [1, 2]) {
        const server = await spawnServer({
          kind: 'cluster',
          env: {
            BENCH_DB: join(dir, `w${workers}-r${round}.db`),
            BENCH_WORKERS: String(workers),
            BENCH_SEED: '1000',
            BENCH_CONFIG: JSON.stringify({ rateLimit: { max: 100_000_000, windowSeconds: 60 } }),
          },
        });
        try {
          const headers = { authorization: `Bearer ${server.keys.bench}` };
          await drive(server.url, headers, warmup);
          const rps = await drive(server.url, headers, seconds);
          runs[workers]!.push(rps);
          process.stdout.write(`  cluster, ${workers} process(es) [round ${round}]: ${Math.round(rps)} req/s\n`);
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const one = median(runs[1]!);
  const two = median(runs[2]!);
  return {
    title: `cluster: GET /api/v2/users/{id} on one port, SQLite WAL, medians of ${rounds} rounds, ${seconds} s each, ${connections} connections; autocannon shares the ${cpus().length} cores with the workers (Node ${process.version})`,
    rows: [
      { processes: 1, 'req/s': Math.round(one), scaling: '1.00' },
      { processes: 2, 'req/s': Math.round(two), scaling: (two / one).toFixed(2) },
    ],
    json: {
      cores: cpus().length,
      seconds,
      rounds,
      connections,
      runs,
      medians: { 1: Math.round(one), 2: Math.round(two) },
      scaling: Math.round((two / one) * 100) / 100,
    },
  };
}

async function drive(url: string, headers: Record<string, string>, duration: number): Promise<number> {
  let n = 0;
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    duration,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: `/api/v2/users/${1 + ((n++ * 7919) % 1000)}` }) }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`cluster bench: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.total / (result.duration || duration);
}
