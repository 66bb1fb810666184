import { cpus } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { spawnServer, type BenchServer } from './servers/spawn-server.ts';
import type { BenchReport } from './types.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? '10');
/** Interleaved rounds of (b), (c) and (c) without usage recording; medians are reported. */
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? '3'));
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? String(Math.min(3, Math.max(1, Math.floor(seconds / 2)))));
const connections = Number(process.env.BENCH_CONNECTIONS ?? '50');
/** `BENCH_PROFILE=<dir>`: the service servers write V8 CPU profiles there when they stop. */
const profileDir = process.env.BENCH_PROFILE;
const seeded = 1000;
const serviceConfig = JSON.stringify({ rateLimit: { max: 100_000_000, windowSeconds: 60 } });

/** One request shape driven at a server. */
interface HttpCase {
  id: string;
  label: string;
  expect: number;
  /** The n-th request of the run. */
  request(n: number): { method: 'GET' | 'POST'; path: string; body?: string };
}

const userId = (n: number) => 1 + ((n * 7919) % seeded);
const cases: Record<'a' | 'b' | 'c' | 'd' | 'e', HttpCase> = {
  a: { id: 'a', label: '(a) bare Fastify: GET user from memory', expect: 200, request: (n) => ({ method: 'GET', path: `/api/v2/users/${userId(n)}` }) },
  b: { id: 'b', label: '(b) GET /api/v2/users/{id}', expect: 200, request: (n) => ({ method: 'GET', path: `/api/v2/users/${userId(n)}` }) },
  c: { id: 'c', label: '(c) GET /api/v1/users/{id} (deprecated)', expect: 200, request: (n) => ({ method: 'GET', path: `/api/v1/users/${userId(n)}` }) },
  d: { id: 'd', label: '(d) GET /api/v2/users?limit=20&fields=id,name', expect: 200, request: () => ({ method: 'GET', path: '/api/v2/users?limit=20&fields=id,name' }) },
  e: {
    id: 'e', label: '(e) POST /api/v2/users', expect: 201,
    request: (n) => ({ method: 'POST', path: '/api/v2/users', body: JSON.stringify({ name: `bench ${process.pid} ${n}`, email: `bench${n}@example.com` }) }),
  },
};

/** What one measured run gave. */
interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  unexpected: number;
  errors: number;
  /** Server CPU time per request (user + system), microseconds: less sensitive to a busy machine than req/s. */
  cpuPerRequest: number;
}

/**
 * The HTTP benchmark: (a) a bare Fastify ceiling, then the service over SQLite (b)-(e), each for
 * `BENCH_SECONDS` (10) after a warm-up, at `BENCH_CONNECTIONS` (50) connections, pipelining 1,
 * with autocannon here and each server in a child process. (c) is also run with usage recording
 * off, interleaved with runs with it on, to price recording. Prints the targets it checks.
 *
 * @example
 * ```sh
 * npm run bench -- http
 * BENCH_SECONDS=2 npm run bench -- http   # quick
 * ```
 */
export async function benchHttp(): Promise<BenchReport> {
  log(`http: ${seconds} s per case after ${warmupSeconds} s of warm-up, ${connections} connections, pipelining 1`);
  const results: Record<string, Measured> = {};
  const bare = await spawnServer({ kind: 'bare', env: { BENCH_SEED: String(seeded) } });
  try {
    results.a = await runCase(bare, cases.a);
  } finally {
    await bare.stop();
  }

  const dir = mkdtempSync(join(tmpdir(), 'versionary-bench-'));
  const serviceEnv = (name: string, usage: 'on' | 'off') => ({
    BENCH_DB: join(dir, `${name}.db`), BENCH_SEED: String(seeded), BENCH_CONFIG: serviceConfig,
    BENCH_KEYS: JSON.stringify([{ name: 'bench', roles: ['read', 'write'] }]), BENCH_RECORD_USAGE: usage,
  });
  const on = await spawnServer({ kind: 'service', env: serviceEnv('on', 'on'), ...(profileDir ? { profileDir } : {}) });
  const off = await spawnServer({ kind: 'service', env: serviceEnv('off', 'off') });
  const usageRuns: { on: Measured[]; off: Measured[] } = { on: [], off: [] };
  const runs: { b: Measured[] } = { b: [] };
  try {
    await preflight(on);
    // Rounds interleave (b), (c) and (c) without usage recording, and the medians are reported:
    // on two shared cores one run of a case differs from the next by more than the effects measured.
    for (let round = 1; round <= rounds; round++) {
      runs.b.push(await runCase(on, cases.b, `round ${round}`));
      usageRuns.on.push(await runCase(on, cases.c, `round ${round}`));
      usageRuns.off.push(await runCase(off, cases.c, `round ${round}, usage recording off`));
    }
    results.b = median(runs.b);
    results.c = median(usageRuns.on);
    results.d = await runCase(on, cases.d);
    results.e = await runCase(on, cases.e);
  } finally {
    await Promise.all([on.stop(), off.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
  return report({ results, usageRuns });
}

async function runCase(server: BenchServer, spec: HttpCase, note?: string): Promise<Measured> {
  const auth: Record<string, string> = server.keys.bench ? { authorization: `Bearer ${server.keys.bench}` } : {};
  await drive({ server, spec, auth, duration: warmupSeconds });
  const cpuBefore = await server.cpuMicros();
  const driven = await drive({ server, spec, auth, duration: seconds });
  const measured = { ...driven, cpuPerRequest: (await server.cpuMicros() - cpuBefore) / Math.max(1, driven.requests) };
  log(`  ${spec.label}${note ? ` [${note}]` : ''}: ${Math.round(measured.rps)} req/s, p50 ${measured.p50.toFixed(2)} ms, p99 ${measured.p99.toFixed(2)} ms, server CPU ${Math.round(measured.cpuPerRequest)} µs/request${measured.unexpected || measured.errors ? `, ${measured.unexpected} unexpected statuses, ${measured.errors} errors` : ''}`);
  return measured;
}

async function drive(options: { server: BenchServer; spec: HttpCase; auth: Record<string, string>; duration: number }): Promise<Omit<Measured, 'cpuPerRequest'>> {
  const { server, spec, auth, duration } = options;
  let n = 0;
  const latencies: number[] = [];
  let unexpected = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({
      url: server.url, connections, pipelining: 1, duration,
      headers: { ...auth, 'content-type': 'application/json' },
      requests: [{ setupRequest: (request) => ({ ...request, ...spec.request(n++) }) }],
    }, (error: unknown, done) => (error ? reject(error as Error) : resolve(done)));
    // autocannon's listener signature: (client, status, bytes, milliseconds).
    instance.on('response', (...[, status, , ms]: [unknown, number, number, number]) => {
      latencies.push(ms);
      if (status !== spec.expect) unexpected++;
    });
  });
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { rps: latencies.length / result.duration, p50: at(0.5), p99: at(0.99), requests: latencies.length, unexpected, errors: result.errors };
}

/** The service answers each case as the benchmark assumes, before anything is timed. */
async function preflight(server: BenchServer): Promise<void> {
  const headers = { authorization: `Bearer ${server.keys.bench}`, 'content-type': 'application/json' };
  for (const spec of Object.values(cases)) {
    if (spec.id === 'a') continue;
    const { method, path, body } = spec.request(0);
    const res = await fetch(server.url + path, { method, headers, ...(body ? { body } : {}) });
    if (res.status !== spec.expect) throw new Error(`${method} ${path}: expected ${spec.expect}, got ${res.status}: ${await res.text()}`);
    if (spec.id === 'c' && !res.headers.get('deprecation')) throw new Error('v1 answered without a Deprecation header');
    await res.arrayBuffer();
  }
}

function report(options: { results: Record<string, Measured>; usageRuns: { on: Measured[]; off: Measured[] } }): BenchReport {
  const { results, usageRuns } = options;
  const ceiling = results.a!.rps;
  const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
  const usageCost = 1 - median(usageRuns.on).rps / median(usageRuns.off).rps;
  const targets = [
    { target: '(b) ≥ 0.6 × (a)', value: round(results.b!.rps / ceiling), met: results.b!.rps / ceiling >= 0.6 },
    { target: '(c) ≥ 0.9 × (b)', value: round(results.c!.rps / results.b!.rps), met: results.c!.rps / results.b!.rps >= 0.9 },
    { target: 'usage recording costs < 5% of (c)', value: `${round(usageCost * 100, 1)}%`, met: usageCost < 0.05 },
    { target: `(b) p99 < 20 ms at ${connections} connections`, value: `${round(results.b!.p99)} ms`, met: results.b!.p99 < 20 },
    { target: `(c) p99 < 20 ms at ${connections} connections`, value: `${round(results.c!.p99)} ms`, met: results.c!.p99 < 20 },
  ];
  log('\nhttp targets');
  for (const t of targets) log(`  ${t.met ? 'met   ' : 'MISSED'} ${t.target}: ${t.value}`);
  const row = (label: string, m: Measured) => ({
    case: label, 'req/s': Math.round(m.rps), 'p50 ms': round(m.p50), 'p99 ms': round(m.p99), 'vs (a)': round(m.rps / ceiling), 'server CPU µs/req': Math.round(m.cpuPerRequest), 'bad responses': m.unexpected + m.errors,
  });
  const rows = Object.entries(results).map(([id, m]) => row(`${cases[id as keyof typeof cases].label}${id === 'b' || id === 'c' ? ` (median of ${rounds})` : ''}`, m));
  rows.push(row(`(c) usage recording off (median of ${usageRuns.off.length})`, median(usageRuns.off)));
  const toJson = (m: Measured) => ({ rps: round(m.rps, 0), p50Ms: round(m.p50), p99Ms: round(m.p99), ratioToA: round(m.rps / ceiling, 3), serverCpuMicrosPerRequest: Math.round(m.cpuPerRequest), requests: m.requests, unexpectedStatuses: m.unexpected, errors: m.errors });
  return {
    title: `http: ${seconds} s per case after ${warmupSeconds} s warm-up, ${connections} connections, pipelining 1 (${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores shared by server and load generator)`,
    rows,
    json: {
      cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, seconds, warmupSeconds, connections, pipelining: 1,
      cases: Object.fromEntries(Object.entries(results).map(([id, m]) => [id, { label: cases[id as keyof typeof cases].label, ...toJson(m) }])),
      usageRecording: { onRuns: usageRuns.on.map(toJson), offRuns: usageRuns.off.map(toJson), costPercent: round(usageCost * 100, 1) },
      targets,
    },
  };
}

/** The run with the median throughput (the lower middle one for an even count). */
function median(runs: Measured[]): Measured {
  const sorted = [...runs].sort((x, y) => x.rps - y.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}
