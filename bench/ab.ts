/**
 * Before and after: the reference service of two checkouts, each in its own process, driven in
 * interleaved rounds (the order alternates), with the server CPU per request of each round. Each
 * checkout needs `node_modules` and a build (`npm run build`).
 *
 * @example
 * ```sh
 * git worktree add ../before HEAD~3 && (cd ../before && ln -s ../main/node_modules && npm run build)
 * AB_ROUNDS=4 AB_SECONDS=4 node --import tsx bench/ab.ts ../before .
 * ```
 */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { drive } from './http.ts';
import type { BenchServer } from './servers/spawn-server.ts';

const roots = process.argv.slice(2, 4).map((root) => resolve(root));
if (roots.length !== 2) throw new Error('usage: bench/ab.ts <before checkout> <after checkout>');
const cases = (process.env.AB_CASES ?? 'v2,v1').split(',');
const rounds = Number(process.env.AB_ROUNDS ?? '4');
const seconds = Number(process.env.AB_SECONDS ?? '4');

const servers: BenchServer[] = [];
for (const [i, root] of roots.entries()) {
  const { spawnServer } = (await import(
    join(root, 'bench/servers/spawn-server.ts')
  )) as typeof import('./servers/spawn-server.ts');
  servers.push(
    await spawnServer({
      kind: 'service',
      env: {
        BENCH_DB: join(tmpdir(), `versionary-ab-${process.pid}-${i}.db`),
        BENCH_SEED: '1000',
        BENCH_CONFIG: JSON.stringify({ rateLimit: { max: 100_000_000, windowSeconds: 60 } }),
        BENCH_KEYS: JSON.stringify([{ name: 'bench', roles: ['read', 'write'] }]),
      },
    }),
  );
}
const results = new Map<string, number[]>();
try {
  for (let round = 0; round < rounds; round++) {
    for (const version of cases) {
      for (const i of round % 2 ? [1, 0] : [0, 1]) {
        const server = servers[i]!;
        const spec = {
          id: version,
          label: version,
          expect: 200,
          request: (n: number) => ({
            method: 'GET' as const,
            path: `/api/${version}/users/${1 + ((n * 7919) % 1000)}`,
          }),
        };
        const auth = { authorization: `Bearer ${server.keys.bench}` };
        await drive({ server, spec, auth, duration: 1 });
        const before = await server.cpuMicros();
        const measured = await drive({ server, spec, auth, duration: seconds });
        const cpu = ((await server.cpuMicros()) - before) / measured.requests;
        const key = `${version} ${i === 0 ? 'before' : 'after'}`;
        results.set(key, [...(results.get(key) ?? []), Math.round(cpu)]);
      }
    }
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}
for (const [key, cpu] of results) {
  const median = [...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)];
  console.log(`${key}: server CPU µs/request by round ${cpu.join(', ')}; median ${median}`);
}
