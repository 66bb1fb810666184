import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { spawnServer, type BenchServer } from './servers/spawn-server.ts';
import type { BenchReport } from './types.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? '5');
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? '1');
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? '3'));
const connections = Number(process.env.BENCH_CONNECTIONS ?? '50');

interface ResponseCase {
  id: string;
  label: string;
  path: (n: number) => string;
}

const userId = (n: number) => 1 + ((n * 7919) % 1000);
const cases: ResponseCase[] = [
  { id: 'v2user', label: 'GET /api/v2/users/{id} (one user)', path: (n) => `/api/v2/users/${userId(n)}` },
  { id: 'v1user', label: 'GET /api/v1/users/{id} (migrated down to v1)', path: (n) => `/api/v1/users/${userId(n)}` },
  { id: 'v2list', label: 'GET /api/v2/users (a page of 20)', path: () => '/api/v2/users' },
];

interface Measured {
  rps: number;
  cpuPerRequest: number;
  bad: number;
}

/**
 * What checking responses costs: the plugin server of case (a2) (in-memory handlers, no storage)
 * with `validateResponses` on, interleaved with the same server with it off (serialisation by
 * the response schema alone), for one user, one user migrated down to v1, and a page of 20.
 * Reports each case's throughput and server CPU per request as ratios of its baseline in the same
 * round; the medians of `BENCH_ROUNDS` rounds.
 *
 * @example
 * ```sh
 * BENCH_SECONDS=3 npm run bench -- responses
 * ```
 */
export async function benchResponses(): Promise<BenchReport> {
  log(
    `responses: ${seconds} s per case after ${warmupSeconds} s of warm-up, ${connections} connections, ${rounds} interleaved rounds`,
  );
  const on = await spawnServer({ kind: 'plugin', env: { BENCH_SEED: '1000', BENCH_VALIDATE_RESPONSES: 'on' } });
  const off = await spawnServer({ kind: 'plugin', env: { BENCH_SEED: '1000', BENCH_VALIDATE_RESPONSES: 'off' } });
  const runs: Record<string, { on: Measured[]; off: Measured[] }> = {};
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const spec of cases) {
        const pair = (runs[spec.id] ??= { on: [], off: [] });
        // Alternate which goes first, so a drift in the machine's load favours neither.
        const order = round % 2 === 1 ? (['off', 'on'] as const) : (['on', 'off'] as const);
        for (const which of order)
          pair[which].push(await runCase(which === 'on' ? on : off, spec, `round ${round}, check ${which}`));
      }
    }
  } finally {
    await Promise.all([on.stop(), off.stop()]);
  }
  const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
  const rows = cases.map((spec) => {
    const { on: onRuns, off: offRuns } = runs[spec.id]!;
    const ratios = onRuns.map((m, i) => ({
      rps: m.rps / offRuns[i]!.rps,
      cpu: m.cpuPerRequest / offRuns[i]!.cpuPerRequest,
      extra: m.cpuPerRequest - offRuns[i]!.cpuPerRequest,
    }));
    const mid = <T>(list: T[], key: (t: T) => number) =>
      [...list].sort((x, y) => key(x) - key(y))[Math.floor((list.length - 1) / 2)]!;
    return {
      case: spec.label,
      'req/s off': Math.round(mid(offRuns, (m) => m.rps).rps),
      'req/s on': Math.round(mid(onRuns, (m) => m.rps).rps),
      'req/s on/off': round(mid(ratios, (r) => r.rps).rps),
      'CPU µs/req off': Math.round(mid(offRuns, (m) => m.cpuPerRequest).cpuPerRequest),
      'CPU µs/req on': Math.round(mid(onRuns, (m) => m.cpuPerRequest).cpuPerRequest),
      'CPU on/off': round(mid(ratios, (r) => r.cpu).cpu),
      'extra CPU µs/req': round(mid(ratios, (r) => r.extra).extra, 1),
      'bad responses': [...onRuns, ...offRuns].reduce((sum, m) => sum + m.bad, 0),
    };
  });
  return {
    title: `responses: validateResponses on against off, medians of ${rounds} interleaved rounds of ${seconds} s (${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores shared by server and load generator, Node ${process.version})`,
    rows,
    json: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      seconds,
      warmupSeconds,
      connections,
      rounds,
      rows,
    },
  };
}

async function runCase(server: BenchServer, spec: ResponseCase, note: string): Promise<Measured> {
  await drive(server, spec, warmupSeconds);
  const before = await server.cpuMicros();
  const { requests, bad, duration } = await drive(server, spec, seconds);
  const measured = {
    rps: requests / duration,
    cpuPerRequest: ((await server.cpuMicros()) - before) / Math.max(1, requests),
    bad,
  };
  log(
    `  ${spec.label} [${note}]: ${Math.round(measured.rps)} req/s, server CPU ${Math.round(measured.cpuPerRequest)} µs/request${bad ? `, ${bad} bad responses` : ''}`,
  );
  return measured;
}

async function drive(
  server: BenchServer,
  spec: ResponseCase,
  duration: number,
): Promise<{ requests: number; bad: number; duration: number }> {
  let n = 0;
  let requests = 0;
  let bad = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url,
        connections,
        pipelining: 1,
        duration,
        requests: [{ setupRequest: (request) => ({ ...request, method: 'GET', path: spec.path(n++) }) }],
      },
      (error: unknown, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', (...[, status]: [unknown, number]) => {
      requests++;
      if (status !== 200) bad++;
    });
  });
  return { requests, bad: bad + result.errors, duration: result.duration };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}
