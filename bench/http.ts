import { cpus } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { defaultSqliteDriver } from '../src/storage/sqlite/sqlite-driver.ts';
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
// The same service with deprecated elements that GET /users/{id} does not have (a body field of
// the user's input and patch, a parameter of the list): (bEl) over (b) is what such an operation pays.
const day = 86_400_000;
const elementsConfig = JSON.stringify({
  rateLimit: { max: 100_000_000, windowSeconds: 60 },
  fieldDeprecations: [
    {
      version: 'v2',
      schema: ['UserInput', 'UserPatch'],
      field: 'nickname',
      deprecatedAt: new Date(Date.now() - day).toISOString(),
      sunsetAt: new Date(Date.now() + 300 * day).toISOString(),
      replacement: 'displayName',
    },
  ],
  parameterDeprecations: [
    {
      version: 'v2',
      method: 'GET',
      path: '/users',
      parameter: 'cursor',
      deprecatedAt: new Date(Date.now() - day).toISOString(),
      sunsetAt: new Date(Date.now() + 300 * day).toISOString(),
    },
  ],
});

// The same service without the per-operation counter of every version's calls (a retention of 0
// turns it off), against a twin with it that serves only (b) too: (bCount) over (bNoCount) is what
// counting every call costs. The main service (b) also serves the writes of (e) and the usage of
// (c), which moves its numbers by more than the counter could.
const noCountConfig = JSON.stringify({
  rateLimit: { max: 100_000_000, windowSeconds: 60 },
  usage: { operationRetentionDays: 0 },
});

/** One request shape driven at a server. */
export interface HttpCase {
  id: string;
  label: string;
  expect: number;
  /** The n-th request of the run. */
  request(n: number): { method: 'GET' | 'POST'; path: string; body?: string };
}

const userId = (n: number) => 1 + ((n * 7919) % seeded);
type CaseId = 'a' | 'a2v2' | 'a2v1' | 'p' | 'pd' | 'b' | 'c' | 'd' | 'e';
const cases: Record<CaseId, HttpCase> = {
  a: {
    id: 'a',
    label: '(a) bare Fastify: GET user from memory',
    expect: 200,
    request: (n) => ({ method: 'GET', path: `/api/v2/users/${userId(n)}` }),
  },
  a2v2: {
    id: 'a2v2',
    label: '(a2) plugin, in-memory handler: GET /api/v2/users/{id}',
    expect: 200,
    request: (n) => ({ method: 'GET', path: `/api/v2/users/${userId(n)}` }),
  },
  a2v1: {
    id: 'a2v1',
    label: '(a2) plugin, in-memory handler: GET /api/v1/users/{id} (deprecated)',
    expect: 200,
    request: (n) => ({ method: 'GET', path: `/api/v1/users/${userId(n)}` }),
  },
  p: {
    id: 'p',
    label: '(p) the same route by hand: GET /api/v2/users/{id}',
    expect: 200,
    request: (n) => ({ method: 'GET', path: `/api/v2/users/${userId(n)}` }),
  },
  pd: {
    id: 'pd',
    label: '(p) list by hand: GET /api/v2/users?limit=20&fields=id,name',
    expect: 200,
    request: () => ({ method: 'GET', path: '/api/v2/users?limit=20&fields=id,name' }),
  },
  b: {
    id: 'b',
    label: '(b) in-process buildApp, silent logs: GET /api/v2/users/{id}',
    expect: 200,
    request: (n) => ({ method: 'GET', path: `/api/v2/users/${userId(n)}` }),
  },
  c: {
    id: 'c',
    label: '(c) in-process buildApp: GET /api/v1/users/{id} (deprecated)',
    expect: 200,
    request: (n) => ({ method: 'GET', path: `/api/v1/users/${userId(n)}` }),
  },
  d: {
    id: 'd',
    label: '(d) in-process buildApp: GET /api/v2/users?limit=20&fields=id,name',
    expect: 200,
    request: () => ({ method: 'GET', path: '/api/v2/users?limit=20&fields=id,name' }),
  },
  e: {
    id: 'e',
    label: '(e) in-process buildApp: POST /api/v2/users',
    expect: 201,
    request: (n) => ({
      method: 'POST',
      path: '/api/v2/users',
      body: JSON.stringify({ name: `bench ${process.pid} ${n}`, email: `bench${n}@example.com` }),
    }),
  },
};

/** What one measured run gave. */
export interface Measured {
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
 * The HTTP benchmark: (a) a bare Fastify ceiling, (p) the same route written by hand (the peer a
 * team would write instead), then the service over SQLite (b)-(e), built in-process with `buildApp`
 * and silent logs (faster than `npm start`'s service: see `started.ts` for that one), each for
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
  log(
    `http: ${seconds} s per case after ${warmupSeconds} s of warm-up, ${connections} connections, pipelining 1, ${rounds} interleaved rounds`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'versionary-bench-'));
  const serviceEnv = (name: string, usage: 'on' | 'off', extra: Record<string, string> = {}) => ({
    BENCH_DB: join(dir, `${name}.db`),
    BENCH_SEED: String(seeded),
    BENCH_CONFIG: serviceConfig,
    BENCH_KEYS: JSON.stringify([{ name: 'bench', roles: ['read', 'write'] }]),
    BENCH_RECORD_USAGE: usage,
    ...extra,
  });
  const redisUrl = process.env.VERSIONARY_REDIS_URL;
  // Every server is up for the whole run (an idle one costs nothing), so rounds can interleave them.
  const bare = await spawnServer({ kind: 'bare', env: { BENCH_SEED: String(seeded) } });
  const plugin = await spawnServer({ kind: 'plugin', env: { BENCH_SEED: String(seeded) } });
  const byHand = await spawnServer({
    kind: 'by-hand',
    env: { BENCH_SEED: String(seeded), BENCH_DB: join(dir, 'by-hand.db') },
  });
  const on = await spawnServer({ kind: 'service', env: serviceEnv('on', 'on'), ...(profileDir ? { profileDir } : {}) });
  const off = await spawnServer({ kind: 'service', env: serviceEnv('off', 'off') });
  const withElements = await spawnServer({
    kind: 'service',
    env: serviceEnv('elements', 'on', { BENCH_CONFIG: elementsConfig }),
  });
  const noCount = await spawnServer({
    kind: 'service',
    env: serviceEnv('no-count', 'on', { BENCH_CONFIG: noCountConfig }),
  });
  const count = await spawnServer({ kind: 'service', env: serviceEnv('count', 'on') });
  const logged = await spawnServer({
    kind: 'service',
    env: serviceEnv('logged', 'on', { BENCH_LOG_LEVEL: 'info' }),
    discardStdout: true,
  });
  const redis = redisUrl
    ? await spawnServer({ kind: 'service', env: serviceEnv('redis', 'on', { BENCH_REDIS_URL: redisUrl }) })
    : undefined;
  const runs: Record<string, Measured[]> = {};
  const usageRuns: { on: Measured[]; off: Measured[] } = { on: [], off: [] };
  const push = (id: string, m: Measured) => (runs[id] ??= []).push(m);
  try {
    await preflight(on);
    await preflightPlugin(plugin);
    await preflightByHand(byHand);
    // Rounds interleave every case, and the medians are reported: on two shared cores one run of a
    // case differs from the next by more than the effects measured.
    for (let round = 1; round <= rounds; round++) {
      const note = `round ${round}`;
      push('a', await runCase(bare, cases.a, note));
      push('a2v2', await runCase(plugin, cases.a2v2, note));
      push('a2v1', await runCase(plugin, cases.a2v1, note));
      push('p', await runCase(byHand, cases.p, note));
      push('pd', await runCase(byHand, cases.pd, note));
      push('b', await runCase(on, cases.b, note));
      push('bEl', await runCase(withElements, cases.b, `${note}, deprecated elements elsewhere`));
      // The twins in alternating order, so that neither always runs on a warmer (or busier) machine.
      const twins: Array<[string, BenchServer, string]> = [
        ['bCount', count, 'operation counting on, twin'],
        ['bNoCount', noCount, 'operation counting off, twin'],
      ];
      for (const [id, server, what] of round % 2 ? twins : twins.reverse())
        push(id, await runCase(server, cases.b, `${note}, ${what}`));
      const c = await runCase(on, cases.c, note);
      push('c', c);
      usageRuns.on.push(c);
      usageRuns.off.push(await runCase(off, cases.c, `${note}, usage recording off`));
      push('d', await runCase(on, cases.d, note));
      push('e', await runCase(on, cases.e, note));
      push('bLog', await runCase(logged, cases.b, `${note}, request log on`));
      if (redis) push('bRedis', await runCase(redis, cases.b, `${note}, Redis rate limit`));
    }
  } finally {
    await Promise.all([
      bare.stop(),
      plugin.stop(),
      byHand.stop(),
      on.stop(),
      off.stop(),
      withElements.stop(),
      noCount.stop(),
      count.stop(),
      logged.stop(),
      redis?.stop(),
    ]);
    rmSync(dir, { recursive: true, force: true });
  }
  const results = Object.fromEntries(Object.entries(runs).map(([id, list]) => [id, median(list)]));
  return report({ results, usageRuns });
}

async function runCase(server: BenchServer, spec: HttpCase, note?: string): Promise<Measured> {
  const auth: Record<string, string> = server.keys.bench ? { authorization: `Bearer ${server.keys.bench}` } : {};
  await drive({ server, spec, auth, duration: warmupSeconds });
  const cpuBefore = await server.cpuMicros();
  const driven = await drive({ server, spec, auth, duration: seconds });
  const measured = {
    ...driven,
    cpuPerRequest: ((await server.cpuMicros()) - cpuBefore) / Math.max(1, driven.requests),
  };
  log(
    `  ${spec.label}${note ? ` [${note}]` : ''}: ${Math.round(measured.rps)} req/s, p50 ${measured.p50.toFixed(2)} ms, p99 ${measured.p99.toFixed(2)} ms, server CPU ${Math.round(measured.cpuPerRequest)} µs/request${measured.unexpected || measured.errors ? `, ${measured.unexpected} unexpected statuses, ${measured.errors} errors` : ''}`,
  );
  return measured;
}

/**
 * Drive one case at a server with autocannon for `duration` seconds; latencies of every response.
 *
 * @example
 * ```ts
 * const m = await drive({ server: { url }, spec, auth: {}, duration: 5 });
 * ```
 */
export async function drive(options: {
  server: Pick<BenchServer, 'url'>;
  spec: HttpCase;
  auth: Record<string, string>;
  duration: number;
}): Promise<Omit<Measured, 'cpuPerRequest'>> {
  const { server, spec, auth, duration } = options;
  let n = 0;
  const latencies: number[] = [];
  let unexpected = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url,
        connections,
        pipelining: 1,
        duration,
        headers: { ...auth, 'content-type': 'application/json' },
        requests: [{ setupRequest: (request) => ({ ...request, ...spec.request(n++) }) }],
      },
      (error: unknown, done) => (error ? reject(error as Error) : resolve(done)),
    );
    // autocannon's listener signature: (client, status, bytes, milliseconds).
    instance.on('response', (...[, status, , ms]: [unknown, number, number, number]) => {
      latencies.push(ms);
      if (status !== spec.expect) unexpected++;
    });
  });
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return {
    rps: latencies.length / result.duration,
    p50: at(0.5),
    p99: at(0.99),
    requests: latencies.length,
    unexpected,
    errors: result.errors,
  };
}

/** The service answers each case as the benchmark assumes, before anything is timed. */
async function preflight(server: BenchServer): Promise<void> {
  const headers = { authorization: `Bearer ${server.keys.bench}`, 'content-type': 'application/json' };
  for (const spec of Object.values(cases)) {
    if (spec.id === 'a' || spec.id.startsWith('a2') || spec.id.startsWith('p')) continue;
    const { method, path, body } = spec.request(0);
    const res = await fetch(server.url + path, { method, headers, ...(body ? { body } : {}) });
    if (res.status !== spec.expect)
      throw new Error(`${method} ${path}: expected ${spec.expect}, got ${res.status}: ${await res.text()}`);
    if (spec.id === 'c' && !res.headers.get('deprecation')) throw new Error('v1 answered without a Deprecation header');
    await res.arrayBuffer();
  }
}

/** The plugin case answers the bare server's JSON on v2, derives v1 and marks it deprecated. */
async function preflightPlugin(server: BenchServer): Promise<void> {
  for (const spec of [cases.a2v2, cases.a2v1]) {
    const res = await fetch(server.url + spec.request(0).path);
    if (res.status !== 200) throw new Error(`${spec.label}: expected 200, got ${res.status}: ${await res.text()}`);
    if (spec.id === 'a2v1' && !res.headers.get('deprecation'))
      throw new Error('(a2) v1 answered without a Deprecation header');
    await res.arrayBuffer();
  }
}

/** The peer answers both its routes with a key, and refuses a request without one. */
async function preflightByHand(server: BenchServer): Promise<void> {
  for (const spec of [cases.p, cases.pd]) {
    const res = await fetch(server.url + spec.request(0).path, {
      headers: { authorization: `Bearer ${server.keys.bench}` },
    });
    if (res.status !== 200) throw new Error(`${spec.label}: expected 200, got ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
  const refused = await fetch(server.url + cases.p.request(0).path);
  if (refused.status !== 401) throw new Error(`(p) without a key: expected 401, got ${refused.status}`);
  await refused.arrayBuffer();
}

function report(options: {
  results: Record<string, Measured>;
  usageRuns: { on: Measured[]; off: Measured[] };
}): BenchReport {
  const { results, usageRuns } = options;
  const r = (id: string) => results[id]!;
  const ceiling = r('a').rps;
  const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
  const usageCost = 1 - median(usageRuns.on).rps / median(usageRuns.off).rps;
  const ratio = (x: string, y: string) => r(x).rps / r(y).rps;
  const atLeast = ([target, x, y, min]: [string, string, string, number]) => ({
    target,
    value: round(ratio(x, y)),
    met: ratio(x, y) >= min,
  });
  const targets = [
    atLeast(['(a2) v2 ≥ 0.9 × (a)', 'a2v2', 'a', 0.9]),
    atLeast(['(a2) v1 ≥ 0.9 × (a2) v2', 'a2v1', 'a2v2', 0.9]),
    atLeast(['(b) ≥ 0.6 × (a)', 'b', 'a', 0.6]),
    atLeast(['(c) ≥ 0.9 × (b)', 'c', 'b', 0.9]),
    atLeast(['(d) ≥ 0.4 × (a)', 'd', 'a', 0.4]),
    atLeast(['(e) ≥ 0.3 × (a)', 'e', 'a', 0.3]),
    atLeast(['(b) ≥ 1.0 × (p), the same route by hand', 'b', 'p', 1.0]),
    atLeast(['(c) ≥ 0.95 × (b)', 'c', 'b', 0.95]),
    atLeast(['(d) ≥ 1.0 × (p) list', 'd', 'pd', 1.0]),
    { target: `(b) p99 < 10 ms at ${connections} connections`, value: `${round(r('b').p99)} ms`, met: r('b').p99 < 10 },
    { target: `(c) p99 < 10 ms at ${connections} connections`, value: `${round(r('c').p99)} ms`, met: r('c').p99 < 10 },
    { target: 'usage recording costs < 5% of (c)', value: `${round(usageCost * 100, 1)}%`, met: usageCost < 0.05 },
    // Noise between rounds is ±10%: "nothing" means within it.
    atLeast(['(b) beside deprecated elements ≥ 0.95 × (b): an operation without one pays nothing', 'bEl', 'b', 0.95]),
    atLeast(['(b) counting every call per operation ≥ 0.98 × (b) without the counter', 'bCount', 'bNoCount', 0.98]),
  ];
  log('\nhttp targets');
  for (const t of targets) log(`  ${t.met ? 'met   ' : 'MISSED'} ${t.target}: ${t.value}`);
  // The ratio column compares each case with what the issue's targets compare it with.
  const base: Record<string, string> = {
    a2v1: 'a2v2',
    c: 'b',
    bRedis: 'b',
    bLog: 'b',
    bEl: 'b',
    bCount: 'bNoCount',
    bNoCount: 'b',
  };
  // Beside the ratio, each service case over what a team would write by hand instead.
  const peer: Record<string, string> = { b: 'p', c: 'p', bRedis: 'p', bLog: 'p', d: 'pd' };
  const labels: Record<string, string> = {
    ...Object.fromEntries(Object.entries(cases).map(([id, c]) => [id, c.label])),
    bRedis: '(b) with the rate limit in Redis',
    bLog: '(b) with the request log on (pino, info, to /dev/null)',
    bEl: '(b) with deprecated fields and parameters on other operations',
    bCount: '(b) on a twin that counts every call per operation (the default)',
    bNoCount: '(b) on a twin without the counter (usage.operationRetentionDays 0)',
  };
  const row = (id: string, label: string, m: Measured) => ({
    case: label,
    'req/s': Math.round(m.rps),
    'p50 ms': round(m.p50),
    'p99 ms': round(m.p99),
    'vs (a)': round(m.rps / ceiling),
    'vs (p)': peer[id] ? round(m.rps / r(peer[id]).rps) : '',
    ratio: `${round(m.rps / r(base[id] ?? 'a').rps)} of ${base[id] ?? 'a'}`,
    'server CPU µs/req': Math.round(m.cpuPerRequest),
    'bad responses': m.unexpected + m.errors,
  });
  const rows = Object.entries(results).map(([id, m]) => row(id, labels[id] ?? id, m));
  rows.push(row('c', '(c) usage recording off', median(usageRuns.off)));
  const toJson = (m: Measured, id?: string) => ({
    rps: round(m.rps, 0),
    p50Ms: round(m.p50),
    p99Ms: round(m.p99),
    ratioToA: round(m.rps / ceiling, 3),
    ...(id && peer[id] ? { ratioToPeer: round(m.rps / r(peer[id]).rps, 3), peer: peer[id] } : {}),
    serverCpuMicrosPerRequest: Math.round(m.cpuPerRequest),
    requests: m.requests,
    unexpectedStatuses: m.unexpected,
    errors: m.errors,
  });
  return {
    title: `http: medians of ${rounds} interleaved rounds, ${seconds} s per case after ${warmupSeconds} s warm-up, ${connections} connections, pipelining 1 (${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores shared by server and load generator, Node ${process.version}, SQLite driver ${defaultSqliteDriver()})`,
    rows,
    json: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      seconds,
      warmupSeconds,
      connections,
      pipelining: 1,
      rounds,
      cases: Object.fromEntries(
        Object.entries(results).map(([id, m]) => [id, { label: labels[id] ?? id, ...toJson(m, id) }]),
      ),
      usageRecording: {
        onRuns: usageRuns.on.map((m) => toJson(m)),
        offRuns: usageRuns.off.map((m) => toJson(m)),
        costPercent: round(usageCost * 100, 1),
      },
      targets,
    },
  };
}

/** The run with the median throughput (the lower middle one for an even count). */
export function median(runs: Measured[]): Measured {
  const sorted = [...runs].sort((x, y) => x.rps - y.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * Each case's rounds as one: the round of median req/s, with the median of the rounds' CPU per
 * request (each its own median), as the gateway and nginx parts report them.
 *
 * @example
 * ```ts
 * const r = medianRounds({ n: [round1, round2, round3] }); // r.n.cpuPerRequest
 * ```
 */
export function medianRounds(runs: Record<string, Measured[]>): Record<string, Measured> {
  return Object.fromEntries(
    Object.entries(runs).map(([id, list]) => [
      id,
      { ...median(list), cpuPerRequest: middleOf(list.map((m) => m.cpuPerRequest)) },
    ]),
  );
}

/** The lower middle of a list of numbers (0 for none). */
export function middleOf(list: number[] = []): number {
  return [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)] ?? 0;
}
