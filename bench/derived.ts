import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/service-process.ts';
import { adminKey, start, type Proc } from './gateway.ts';
import { drive, medianRounds, type HttpCase, type Measured } from './http.ts';
import type { BenchReport } from './types.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? '10');
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? '3'));
const warmup = Math.min(3, Math.max(1, Math.floor(seconds / 2)));
const root = new URL('..', import.meta.url).pathname;
const example = join(root, 'examples/gateway-derived');

const list = (id: string, label: string, version: string): HttpCase => ({
  id,
  label,
  expect: 200,
  request: () => ({ method: 'GET', path: `/api/${version}/users` }),
});
const cases = [
  list('p', '(p) versionary gateway, v2 list passed through', 'v2'),
  list('d', '(d) versionary gateway, v1 list derived from v2 (parsed, checked, migrated down)', 'v1'),
];

/**
 * A version served from a newer one (`derivedFrom`) against the same gateway passing the newer
 * version through: one gateway in front of an upstream that serves only v2's list of 20 users
 * (about 2 KB), v1 derived by `examples/gateway-derived/changes-v2.json`. Servers on core 0, the
 * load on core 1; rounds interleave the cases; medians are reported, with CPU per request.
 *
 * @example
 * ```sh
 * npm run bench -- derived
 * ```
 */
export async function benchDerived(): Promise<BenchReport> {
  spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)]);
  const dir = mkdtempSync(join(tmpdir(), 'versionary-bench-derived-'));
  const procs: Proc[] = [];
  try {
    const upPort = await freePort();
    const upstream = await start([process.execPath, join(root, 'bench/servers/list-upstream.mjs'), String(upPort)], {
      port: upPort,
      ready: '/api/v2/users',
    });
    procs.push(upstream);
    copyFileSync(join(example, 'openapi-v2.json'), join(dir, 'openapi-v2.json'));
    copyFileSync(join(example, 'changes-v2.json'), join(dir, 'changes-v2.json'));
    const config = {
      gateway: {
        prefix: '/api',
        vendor: 'acme',
        versions: {
          v2: { upstream: upstream.url, openapi: './openapi-v2.json' },
          v1: { derivedFrom: 'v2', changes: './changes-v2.json' },
        },
      },
      rateLimit: { max: 100_000_000, windowSeconds: 60 },
    };
    writeFileSync(join(dir, 'gateway.json'), JSON.stringify(config));
    const port = await freePort();
    // `BENCH_CPU_PROF=<dir>`: the gateway writes a CPU profile there (`node --cpu-prof`) as it stops.
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
    const gateway = await start([process.execPath, ...profile, join(root, 'bin/versionary.js'), 'gateway'], {
      port,
      ready: '/readyz',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}`,
        VERSIONARY_ADMIN_KEY: adminKey,
        VERSIONARY_CONFIG: join(dir, 'gateway.json'),
        LOG_LEVEL: 'warn',
        VERSIONARY_SHUTDOWN_DELAY_MS: '0',
      },
    });
    procs.push(gateway);
    const auth = { authorization: `Bearer ${adminKey}` };
    const check = await fetch(`${gateway.url}/api/v1/users`, { headers: auth });
    if (check.status !== 200 || !Array.isArray(await check.json()))
      throw new Error('the derived v1 list is not an array');
    const runs: Record<string, Measured[]> = {};
    const upstreamCpu: Record<string, number[]> = {};
    for (let round = 0; round < rounds; round++) {
      for (const spec of cases) {
        await drive({ server: gateway, spec, auth, duration: warmup });
        const [cpu0, up0] = [gateway.cpuMicros(), upstream.cpuMicros()];
        const measured = await drive({ server: gateway, spec, auth, duration: seconds });
        const served = Math.max(1, measured.requests);
        (runs[spec.id] ??= []).push({ ...measured, cpuPerRequest: (gateway.cpuMicros() - cpu0) / served });
        (upstreamCpu[spec.id] ??= []).push((upstream.cpuMicros() - up0) / served);
        process.stdout.write(
          `  ${spec.label} [round ${round + 1}]: ${Math.round(measured.rps)} req/s, p99 ${measured.p99.toFixed(2)} ms, CPU ${Math.round(runs[spec.id]!.at(-1)!.cpuPerRequest)} µs/req\n`,
        );
      }
    }
    return report(medianRounds(runs));
  } finally {
    // SIGTERM first: a profiled gateway writes its profile as it exits.
    for (const p of procs.slice().reverse()) {
      const exited = new Promise((done) => p.child.once('exit', done));
      p.child.kill(p === procs[0] ? 'SIGKILL' : 'SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
      p.child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(r: Record<string, Measured>): BenchReport {
  const round = (x: number) => Math.round(x * 100) / 100;
  const rps = r.d!.rps / r.p!.rps;
  const cpu = r.p!.cpuPerRequest / r.d!.cpuPerRequest;
  const targets = [
    { target: '(d) ≥ 0.8 × (p), by req/s', value: round(rps), met: rps >= 0.8 },
    { target: '(d) ≥ 0.8 × (p), by CPU per request', value: round(cpu), met: cpu >= 0.8 },
    { target: '(d) p99 < 10 ms at 50 connections', value: `${r.d!.p99.toFixed(2)} ms`, met: r.d!.p99 < 10 },
  ];
  process.stdout.write(
    `\nderived targets\n${targets.map((t) => `  ${t.met ? 'met   ' : 'MISSED'} ${t.target}: ${t.value}`).join('\n')}\n`,
  );
  return {
    title: `derived: medians of ${rounds} interleaved rounds, ${seconds} s per case after ${warmup} s warm-up, 50 connections (${cpus()[0]?.model.trim()}; servers on core 0, load on core 1; Node ${process.version})`,
    rows: cases.map((c) => ({
      case: c.label,
      'req/s': Math.round(r[c.id]!.rps),
      'vs (p)': round(r[c.id]!.rps / r.p!.rps),
      'p99 ms': round(r[c.id]!.p99),
      'gateway CPU µs/req': Math.round(r[c.id]!.cpuPerRequest),
      'CPU vs (p)': round(r.p!.cpuPerRequest / r[c.id]!.cpuPerRequest),
      'bad responses': r[c.id]!.unexpected + r[c.id]!.errors,
    })),
    json: { cases: r, targets },
  };
}
