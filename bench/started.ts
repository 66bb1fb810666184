/**
 * `npm run bench -- started`: the service as users run it, beside the same route written by hand.
 *
 * The service is started as `npm start` starts it: `node dist/server.js`, a SQLite file,
 * `VERSIONARY_ADMIN_KEY` from the environment, `LOG_LEVEL=warn` and a config file with v1
 * deprecated and v2 current. The bench then seeds users and creates a client key through the public
 * API, as a user would. The peer (`servers/by-hand.ts`) keeps its own SQLite file in WAL mode too.
 * Every server is pinned to core 0 and this process (the load) to core 1. CPU per request is the
 * server's user + system time from `/proc/<pid>/stat` over the measured run, divided by the
 * requests answered. Each Node line given in `BENCH_NODES` (20 and 24) runs the whole set.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { freePort } from '../test/support/service-process.ts';
import { start, type Proc } from './gateway.ts';
import { drive, type HttpCase, type Measured } from './http.ts';
import { spawnServer } from './servers/spawn-server.ts';
import { seededUser } from './servers/protocol.ts';
import { startOtlpSink, type OtlpSink } from './otlp-sink.ts';
import type { BenchReport } from './types.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? '5');
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? '3'));
const warmup = Number(process.env.BENCH_WARMUP ?? '2');
const lines = (process.env.BENCH_NODES ?? '20,24').split(',').map((l) => l.trim());
const seeded = 1000;
const adminKey = 'bench-started-admin-key-0123456789';
const root = new URL('..', import.meta.url).pathname;
const ticks = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;

/** User + system CPU time of a process so far, in microseconds, from `/proc/<pid>/stat`. */
const cpuOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticks) * 1e6;
};

const userCase = (id: string, label: string, version: string): HttpCase => ({
  id,
  label,
  expect: 200,
  request: (n) => ({ method: 'GET', path: `/api/${version}/users/${1 + ((n * 7919) % seeded)}` }),
});
/**
 * `BENCH_BUILDS=<dir>,<dir>`: more services from other builds (each folder holding `dist/server.js`,
 * `package.json` and `node_modules`), run in the same rounds: before and after each change.
 */
const builds = (process.env.BENCH_BUILDS ?? '').split(',').filter(Boolean);
/**
 * `BENCH_OTEL=1`: a second service of the same build with tracing on (OTLP/HTTP to a local sink
 * that drops what it gets), in the same rounds as the one with no `OTEL_*` variable.
 */
const otel = process.env.BENCH_OTEL === '1';
const tracing = (sink: OtlpSink): Record<string, string> => ({
  OTEL_SERVICE_NAME: 'versionary-bench',
  OTEL_TRACES_EXPORTER: 'otlp',
  OTEL_METRICS_EXPORTER: 'none',
  OTEL_LOGS_EXPORTER: 'none',
  OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
});
const cases: Record<string, HttpCase> = {
  p: userCase('p', '(p) by hand: key hashed and looked up, SQLite WAL file', 'v2'),
  sk: userCase('sk', '(s) service v2, stored client key', 'v2'),
  sa: userCase('sa', '(s) service v2, admin key from the environment', 'v2'),
  sk1: userCase('sk1', '(s) service v1 (deprecated), stored client key', 'v1'),
};
if (otel) {
  cases.sko = userCase('sko', '(s) service v2, stored client key, tracing on (OTLP to a local sink)', 'v2');
  cases.sk1o = userCase('sk1o', '(s) service v1 (deprecated), stored client key, tracing on', 'v1');
}
for (const dir of builds) {
  const name = basename(dir);
  cases[`${name}:k`] = userCase(`${name}:k`, `(${name}) build ${name} v2, stored client key`, 'v2');
  cases[`${name}:a`] = userCase(`${name}:a`, `(${name}) build ${name} v2, admin key from the environment`, 'v2');
  cases[`${name}:k1`] = userCase(`${name}:k1`, `(${name}) build ${name} v1 (deprecated), stored client key`, 'v1');
}
type CaseId = string;

/** A server under load: where it answers, its pid, and how to stop it. */
interface Target {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The service as `npm start` runs it and its hand-written peer, side by side, on each Node line.
 *
 * @example
 * ```sh
 * npm run bench -- started
 * BENCH_NODES=20 BENCH_SECONDS=3 npm run bench -- started
 * ```
 */
export async function benchStarted(): Promise<BenchReport> {
  // Every server inherits this environment: the untraced service must see no `OTEL_*` at all.
  if (otel) for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
  spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)]);
  const results: Record<string, Record<CaseId, Measured>> = {};
  const load = { before: loadavg()[0]!, after: 0 };
  for (const line of lines) results[line] = await benchLine(line);
  load.after = loadavg()[0]!;
  return report(results, load);
}

async function benchLine(line: string): Promise<Record<CaseId, Measured>> {
  const node = nodeBinary(line);
  const version = spawnSync(node, ['--version']).stdout.toString().trim();
  log(`started, Node ${version}: ${seconds} s per case after ${warmup} s warm-up, 50 connections, ${rounds} rounds`);
  const dir = mkdtempSync(join(tmpdir(), 'versionary-bench-started-'));
  const targets: Target[] = [];
  const sink = otel ? await startOtlpSink() : undefined;
  try {
    const peer = await spawnServer({
      kind: 'by-hand',
      execPath: node,
      env: { BENCH_SEED: String(seeded), BENCH_DB: join(dir, 'by-hand.db') },
    });
    spawnSync('taskset', ['-a', '-p', '-c', '0', String(peer.pid)]);
    targets.push(peer);
    const service = await startService({ node, dir, root, name: 'service' });
    targets.push(service);
    const clientKey = await seedService(service.url);
    const auth = (key: string) => ({ authorization: `Bearer ${key}` });
    const plan: Array<[CaseId, Target, Record<string, string>]> = [
      ['p', peer, auth(peer.keys.bench!)],
      ['sk', service, auth(clientKey)],
      ['sa', service, auth(adminKey)],
      ['sk1', service, auth(clientKey)],
    ];
    if (sink) {
      const traced = await startService({ node, dir, root, name: 'traced', env: tracing(sink) });
      targets.push(traced);
      const key = await seedService(traced.url);
      plan.push(['sko', traced, auth(key)], ['sk1o', traced, auth(key)]);
    }
    for (const build of builds) {
      const name = basename(build);
      const other = await startService({ node, dir, root: build, name });
      targets.push(other);
      const key = await seedService(other.url);
      plan.push(
        [`${name}:k`, other, auth(key)],
        [`${name}:a`, other, auth(adminKey)],
        [`${name}:k1`, other, auth(key)],
      );
    }
    const runs: Partial<Record<CaseId, Measured[]>> = {};
    for (let round = 1; round <= rounds; round++) {
      // Alternate the order, so no case always runs on a warmer (or busier) machine.
      for (const [id, target, headers] of round % 2 ? plan : [...plan].reverse()) {
        const m = await measure(target, cases[id]!, headers);
        (runs[id] ??= []).push(m);
        log(
          `  ${cases[id]!.label} [round ${round}]: ${Math.round(m.rps)} req/s, p99 ${m.p99.toFixed(2)} ms, CPU ${Math.round(m.cpuPerRequest)} µs/req${m.unexpected || m.errors ? `, ${m.unexpected} unexpected, ${m.errors} errors` : ''}`,
        );
      }
    }
    if (sink) {
      const { exports, bytes } = sink.received();
      // No export at all means the traced service never started the SDK: its numbers measure nothing.
      log(
        `  the OTLP sink received ${exports} exports (${Math.round(bytes / 1024)} KiB)${exports === 0 ? ': TRACING DID NOT START' : ''}`,
      );
    }
    return Object.fromEntries(Object.entries(runs).map(([id, list]) => [id, medianOf(list ?? [])]));
  } finally {
    for (const t of targets.reverse()) await t.stop();
    await sink?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(target: Target, spec: HttpCase, auth: Record<string, string>): Promise<Measured> {
  await drive({ server: target, spec, auth, duration: warmup });
  const before = cpuOf(target.pid);
  const m = await drive({ server: target, spec, auth, duration: seconds });
  return { ...m, cpuPerRequest: (cpuOf(target.pid) - before) / Math.max(1, m.requests) };
}

/** This process's binary for its own line; another line from the npm registry's Node package, cached. */
function nodeBinary(line: string): string {
  if (process.versions.node.split('.')[0] === line) return process.execPath;
  const found = spawnSync(join(root, '.ci/node-line.sh'), [line], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`no Node ${line}: ${found.stderr}`);
  return join(found.stdout.trim(), 'node');
}

/** `node dist/server.js` with the environment and config file a user writes. */
async function startService(options: {
  node: string;
  dir: string;
  root: string;
  name: string;
  env?: Record<string, string>;
}): Promise<Target> {
  const { node, dir, name } = options;
  const configFile = join(dir, 'versionary.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      versions: { v1: { deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: '2099-01-01T00:00:00Z', replacement: 'v2' } },
      // Counted on every request, as always, but never refusing one during the run.
      rateLimit: { max: 100_000_000, windowSeconds: 60 },
    }),
  );
  const port = await freePort();
  const proc: Proc = await start([node, join(options.root, 'dist/server.js')], {
    port,
    ready: '/readyz',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
      VERSIONARY_ADMIN_KEY: adminKey,
      VERSIONARY_CONFIG: configFile,
      LOG_LEVEL: 'warn',
      VERSIONARY_SHUTDOWN_DELAY_MS: '0',
      ...options.env,
    },
  });
  return {
    url: proc.url,
    pid: proc.pid,
    stop: async () => {
      const exited = new Promise((r) => proc.child.once('exit', r));
      proc.child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Users through the public API, and a stored client key through the management API. */
async function seedService(base: string): Promise<string> {
  const headers = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  for (let n = 1; n <= seeded; n++) await post('/api/v2/users', seededUser(n));
  const created = await post('/admin/v1/api-keys', { name: 'bench', roles: ['read', 'write'] });
  const v1 = await fetch(`${base}/api/v1/users/1`, { headers: { authorization: `Bearer ${String(created.key)}` } });
  if (v1.status !== 200 || !v1.headers.get('deprecation'))
    throw new Error(`v1 answered ${v1.status} without Deprecation`);
  await v1.arrayBuffer();
  return String(created.key);
}

function report(
  results: Record<string, Record<CaseId, Measured>>,
  load: { before: number; after: number },
): BenchReport {
  const round = (x: number) => Math.round(x * 100) / 100;
  const rows = Object.entries(results).flatMap(([line, r]) =>
    Object.entries(r).map(([id, m]) => ({
      node: line,
      case: cases[id]!.label,
      'req/s': Math.round(m.rps),
      'CPU µs/req': Math.round(m.cpuPerRequest),
      // Both ratios read "higher is better": the peer's CPU per request over the case's.
      'req/s vs (p)': round(m.rps / r.p!.rps),
      'CPU vs (p)': round(r.p!.cpuPerRequest / m.cpuPerRequest),
      'p99 ms': round(m.p99),
      'bad responses': m.unexpected + m.errors,
    })),
  );
  for (const [line, all] of Object.entries(results)) {
    const r = all as Record<'p' | 'sk' | 'sa' | 'sk1', Measured>;
    log(`\nstarted targets, Node ${line}`);
    const check = (label: string, value: number, min: number) =>
      log(`  ${value >= min ? 'met   ' : 'MISSED'} ${label}: ${round(value)}`);
    check('(s) v2 client key ≥ 1.0 × (p), CPU per request', r.p.cpuPerRequest / r.sk.cpuPerRequest, 1);
    check('(s) v2 admin key ≥ 1.0 × (p), CPU per request', r.p.cpuPerRequest / r.sa.cpuPerRequest, 1);
    check('(s) v1 ≥ 0.95 × v2, CPU per request', r.sk.cpuPerRequest / r.sk1.cpuPerRequest, 0.95);
    const traced = all.sko;
    if (traced)
      log(
        `  tracing on costs ${Math.round(traced.cpuPerRequest - r.sk.cpuPerRequest)} µs of CPU per request (v2: ${round(traced.cpuPerRequest / r.sk.cpuPerRequest)} × the CPU, ${round(traced.rps / r.sk.rps)} × the req/s; v1: ${round(all.sk1o!.cpuPerRequest / r.sk1.cpuPerRequest)} × the CPU)`,
      );
  }
  return {
    title: `started: the service as \`npm start\` runs it against the route by hand; medians of ${rounds} rounds of ${seconds} s, 50 connections (${cpus()[0]?.model ?? 'unknown CPU'}, servers on core 0, load on core 1; load average ${load.before.toFixed(2)} → ${load.after.toFixed(2)})`,
    rows,
    json: {
      seconds,
      rounds,
      connections: 50,
      loadAverage: load,
      lines: Object.fromEntries(
        Object.entries(results).map(([line, r]) => [
          line,
          Object.fromEntries(
            Object.entries(r).map(([id, m]) => [
              id,
              { rps: Math.round(m.rps), cpuMicrosPerRequest: Math.round(m.cpuPerRequest), p99Ms: round(m.p99) },
            ]),
          ),
        ]),
      ),
    },
  };
}

/** Each measure's own median over the rounds (the lower middle one for an even count). */
function medianOf(runs: Measured[]): Measured {
  const mid = (pick: (m: Measured) => number) =>
    runs.map(pick).sort((x, y) => x - y)[Math.floor((runs.length - 1) / 2)]!;
  return {
    ...runs[0]!,
    rps: mid((m) => m.rps),
    p50: mid((m) => m.p50),
    p99: mid((m) => m.p99),
    cpuPerRequest: mid((m) => m.cpuPerRequest),
    unexpected: runs.reduce((sum, m) => sum + m.unexpected, 0),
    errors: runs.reduce((sum, m) => sum + m.errors, 0),
  };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}
