import type { BenchReport } from './types.ts';

/** One measured case of a part's JSON record. */
interface Case {
  rps: number;
  cpuMicrosPerRequest: number;
  p99Ms: number;
}

/** One of issue 63's goals: a data plane against the floor it stands on. */
interface Goal {
  plane: string;
  against: string;
  goal: number;
  /** The case and its floor, by part; undefined when the part did not measure them. */
  pair: () => [Case, Case] | undefined;
}

/**
 * Every data plane against its floor in one run (`npm run bench -- floors`): the service as `npm
 * start` runs it against the route written by hand (`started`, on Node 24 unless `BENCH_NODES`
 * says otherwise), `versionary gateway` against Fastify + undici (`gateway`, cases xf, g, gd) and
 * nginx with Versionary's files against plain `proxy_pass` (`nginx`). Each part prints its own
 * table; this one puts each goal beside what was measured, by req/s and by CPU per request (the
 * measure that holds on a shared machine), with the case's p99.
 *
 * @example
 * ```sh
 * npm run bench -- floors
 * BENCH_SECONDS=6 BENCH_ROUNDS=2 npm run bench -- floors
 * ```
 */
export async function benchFloors(print: (report: BenchReport) => void): Promise<BenchReport> {
  process.env.BENCH_NODES ??= '24';
  process.env.BENCH_GATEWAY_CASES ??= 'xf,g,gd';
  const started = await (await import('./started.ts')).benchStarted();
  print(started);
  const gateway = await (await import('./gateway.ts')).benchGateway();
  print(gateway);
  const nginx = await (await import('./nginx.ts')).benchNginx();
  print(nginx);
  const service = (started.json.lines as Record<string, Record<string, Case>>)[process.env.BENCH_NODES.split(',')[0]!];
  const gw = gateway.json.cases as Record<string, Case>;
  const ng = nginx.json.cases as Record<string, Case>;
  const pair = (cases: Record<string, Case> | undefined, id: string, floor: string) => () =>
    cases?.[id] && cases[floor] ? ([cases[id], cases[floor]] as [Case, Case]) : undefined;
  const goals: Goal[] = [
    { plane: 'service v2', against: 'the route by hand (p)', goal: 1, pair: pair(service, 'sk', 'p') },
    { plane: 'service v1 (deprecated)', against: 'service v2', goal: 0.95, pair: pair(service, 'sk1', 'sk') },
    { plane: 'gateway v2 (g)', against: 'Fastify + undici (xf)', goal: 1, pair: pair(gw, 'g', 'xf') },
    { plane: 'gateway v1 (gd)', against: 'gateway v2 (g)', goal: 0.95, pair: pair(gw, 'gd', 'g') },
    { plane: 'nginx + Versionary v2 (vn)', against: 'plain nginx (n)', goal: 0.8, pair: pair(ng, 'vn', 'n') },
    { plane: 'nginx + Versionary v1 (vnd)', against: 'nginx v2 (vn)', goal: 0.95, pair: pair(ng, 'vnd', 'vn') },
    { plane: 'nginx, rate limits in Redis (vnr)', against: 'plain nginx (n)', goal: 0.6, pair: pair(ng, 'vnr', 'n') },
  ];
  const round = (x: number) => Math.round(x * 100) / 100;
  const rows = goals.flatMap((g) => {
    const measured = g.pair();
    if (!measured) return [];
    const [it, floor] = measured;
    const byRps = it.rps / floor.rps;
    const byCpu = floor.cpuMicrosPerRequest / it.cpuMicrosPerRequest;
    return [
      {
        'data plane': g.plane,
        against: g.against,
        goal: `≥ ${g.goal}`,
        'req/s ratio': round(byRps),
        'CPU ratio': round(byCpu),
        'p99 ms': it.p99Ms,
        met: byRps >= g.goal && byCpu >= g.goal ? 'met' : byCpu >= g.goal ? 'by CPU only' : 'MISSED',
      },
    ];
  });
  return {
    title: 'floors: every data plane against its floor (ratios: higher is better; the p99 goal is < 10 ms)',
    rows,
    json: { goals: rows, started: started.json, gateway: gateway.json, nginx: nginx.json },
  };
}
