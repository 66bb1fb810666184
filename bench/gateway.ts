import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/service-process.ts';
import { drive, medianRounds, middleOf, type HttpCase, type Measured } from './http.ts';
import type { BenchReport } from './types.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? '10');
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? '3'));
const warmup = Math.min(3, Math.max(1, Math.floor(seconds / 2)));
/** `BENCH_GATEWAY_CASES=xf,g` runs only those cases (the upstream is always started); all by default. */
const only = process.env.BENCH_GATEWAY_CASES?.split(',').map((c) => c.trim());
const wanted = (id: string) => !only || only.includes(id);
export const adminKey = 'bench-gateway-admin-key-0123456789';
const nginxBin = '/usr/sbin/nginx';
const root = new URL('..', import.meta.url).pathname;
const ticks = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;

/** A process under test: where it answers, and its CPU time so far. */
export interface Proc {
  url: string;
  pid: number;
  child: ChildProcess;
  cpuMicros(): number;
}

const cpuOf = (pid: number) => () => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticks) * 1e6;
};

export async function start(
  command: string[],
  options: { port: number; env?: Record<string, string>; ready: string },
): Promise<Proc> {
  // Every server on core 0; this process, the load generator, is on core 1.
  const child = spawn('taskset', ['-c', '0', ...command], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += String(d);
  });
  const url = `http://127.0.0.1:${options.port}`;
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    if (
      await fetch(url + options.ready).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      return { url, pid: child.pid!, child, cpuMicros: cpuOf(child.pid!) };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${command.join(' ')} did not start: ${stderr.slice(-2000)}`);
}

const user = (n: number) => 1 + (n % 1000);
const caseOf = (id: string, label: string, version: string): HttpCase => ({
  id,
  label,
  expect: 200,
  request: (n) => ({ method: 'GET', path: `/api/${version}/users/${user(n)}` }),
});
const cases: Record<string, HttpCase> = {
  u: caseOf('u', '(u) direct to the upstream (node:http)', 'v2'),
  n: caseOf('n', '(n) nginx proxy_pass', 'v2'),
  r: caseOf('r', '(r) Fastify + @fastify/reply-from alone, no hooks', 'v2'),
  x: caseOf('x', '(x) node:http + undici Pool.dispatch alone', 'v2'),
  xf: caseOf('xf', '(xf) Fastify routing + undici Pool.dispatch alone', 'v2'),
  g: caseOf('g', '(g) versionary gateway, current version v2', 'v2'),
  gd: caseOf('gd', '(gd) versionary gateway, deprecated version v1', 'v1'),
};

/**
 * The gateway against its peers, side by side in one run: the upstream direct (u), Debian's nginx
 * in front of it (n), the Node.js floors (r: Fastify and `@fastify/reply-from` alone; x: `node:http`
 * and undici's `Pool.dispatch` alone; xf: the same behind Fastify's router), and `versionary gateway` on the current (g) and the deprecated version
 * (gd), which adds the lifecycle headers and records usage per client. Servers share core 0, the
 * load generator has core 1. Rounds interleave the cases; medians are reported.
 *
 * @example
 * ```sh
 * npm run bench -- gateway
 * ```
 */
export async function benchGateway(): Promise<BenchReport> {
  spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)]);
  if (!existsSync(join(root, 'dist/cli/main.js')))
    throw new Error('the gateway bench runs the built CLI: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'versionary-bench-gateway-'));
  const procs: Proc[] = [];
  try {
    const upPort = await freePort();
    const upstream = await start([process.execPath, join(root, 'bench/servers/fast-upstream.mjs'), String(upPort)], {
      port: upPort,
      ready: '/api/v2/users/1',
    });
    procs.push(upstream);
    const nginx = existsSync(nginxBin) ? await startNginx({ dir, upstream: upstream.url }) : undefined;
    if (nginx) procs.push(nginx);
    const floorPort = await freePort();
    const floor = await start(
      [process.execPath, join(root, 'bench/servers/bare-proxy.mjs'), String(floorPort), upstream.url],
      { port: floorPort, ready: '/api/v2/users/1' },
    );
    procs.push(floor);
    const dispatchFloor = async (mode: string) => {
      const port = await freePort();
      const script = join(root, 'bench/servers/dispatch-proxy.mjs');
      const proc = await start([process.execPath, script, String(port), upstream.url, mode], {
        port,
        ready: '/api/v2/users/1',
      });
      procs.push(proc);
      return proc;
    };
    const dispatch = await dispatchFloor('http');
    const dispatchFastify = await dispatchFloor('fastify');
    const auth = { authorization: `Bearer ${adminKey}` };
    const gateway = await startGateway({ dir, upstream: upstream.url });
    procs.push(gateway);
    // Built checkouts of other commits (`BENCH_GATEWAY_BUILDS=before=/tmp/a,step1=/tmp/b`), each run
    // beside this one as (g:<label>): changes measured against each other under the same load, on
    // a machine shared with other work.
    const builds: { id: string; target: Proc; headers: Record<string, string> }[] = [];
    for (const entry of process.env.BENCH_GATEWAY_BUILDS?.split(',').filter(Boolean) ?? []) {
      const [label, buildRoot] = entry.split('=') as [string, string];
      const id = `g:${label}`;
      cases[id] = caseOf(id, `(g:${label}) versionary gateway v2, built in ${buildRoot}`, 'v2');
      const target = await startGateway({ dir, upstream: upstream.url, root: buildRoot });
      procs.push(target);
      builds.push({ id, target, headers: auth });
    }
    const deprecated = await fetch(`${gateway.url}/api/v1/users/1`, { headers: auth });
    if (deprecated.status !== 200 || !deprecated.headers.get('deprecation'))
      throw new Error(`the gateway's v1 answered ${deprecated.status} without Deprecation`);
    const runs: Record<string, Measured[]> = {};
    const upstreamCpus: Record<string, number[]> = {};
    const run = async ({
      id,
      target,
      headers,
      note,
    }: {
      id: string;
      target: Proc;
      headers: Record<string, string>;
      note: string;
    }) => {
      const spec = cases[id]!;
      await drive({ server: target, spec, auth: headers, duration: warmup });
      const before = { proxy: target.cpuMicros(), upstream: upstream.cpuMicros() };
      const m = await drive({ server: target, spec, auth: headers, duration: seconds });
      const cpu = (target.cpuMicros() - before.proxy) / Math.max(1, m.requests);
      const upstreamCpu = (upstream.cpuMicros() - before.upstream) / Math.max(1, m.requests);
      (runs[id] ??= []).push({ ...m, cpuPerRequest: cpu });
      upstreamCpus[id] = [...(upstreamCpus[id] ?? []), target === upstream ? 0 : upstreamCpu];
      log(
        `  ${spec.label} [${note}]: ${Math.round(m.rps)} req/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms, CPU ${Math.round(cpu)} µs/req${target === upstream ? '' : ` (+ upstream ${Math.round(upstreamCpu)})`}${m.unexpected || m.errors ? `, ${m.unexpected} unexpected, ${m.errors} errors` : ''}`,
      );
    };
    log(
      `gateway: ${seconds} s per case after ${warmup} s warm-up, 50 connections, ${rounds} interleaved rounds; servers on core 0, load on core 1`,
    );
    for (let round = 1; round <= rounds; round++) {
      const note = `round ${round}`;
      const all: { id: string; target: Proc | undefined; headers: Record<string, string> }[] = [
        { id: 'u', target: upstream, headers: {} },
        { id: 'n', target: nginx, headers: {} },
        { id: 'r', target: floor, headers: {} },
        { id: 'x', target: dispatch, headers: {} },
        { id: 'xf', target: dispatchFastify, headers: {} },
        ...builds,
        { id: 'g', target: gateway, headers: auth },
        { id: 'gd', target: gateway, headers: auth },
      ];
      for (const c of all)
        if (c.target && wanted(c.id)) await run({ id: c.id, target: c.target, headers: c.headers, note });
    }
    return report({ runs, upstreamCpus, nginx: nginx !== undefined });
  } finally {
    for (const p of procs.reverse()) {
      p.child.kill('SIGTERM');
      if (p.child.exitCode === null) await new Promise((r) => p.child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

async function startNginx(options: { dir: string; upstream: string }): Promise<Proc> {
  const port = await freePort();
  const conf = join(options.dir, 'nginx.conf');
  const temp = (name: string) => `${name}_temp_path ${join(options.dir, name)};`;
  writeFileSync(
    conf,
    `daemon off; master_process off; worker_processes 1; pid ${join(options.dir, 'nginx.pid')}; error_log ${join(options.dir, 'nginx-error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off; ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}
  upstream api { server ${options.upstream.replace('http://', '')}; keepalive 64; }
  server { listen 127.0.0.1:${port}; location / { proxy_pass http://api; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $host; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; } }
}
`,
  );
  return start([nginxBin, '-c', conf, '-p', options.dir], { port, ready: '/api/v2/users/1' });
}

/** The bench's gateway config (v1 deprecated, the rate limit out of the way) and its documents, in `dir`; `nginx` is its `gateway.nginx` section. */
export function writeGatewayConfig(options: { dir: string; upstream: string; nginx?: Record<string, unknown> }): void {
  const doc = (version: string) => ({
    openapi: '3.1.0',
    info: { title: 'Bench users', version },
    paths: {
      [`/api/${version}/users/{id}`]: {
        get: {
          operationId: 'getUser',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            200: { description: 'A user', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
    },
  });
  for (const v of ['v1', 'v2']) writeFileSync(join(options.dir, `openapi-${v}.json`), JSON.stringify(doc(v)));
  writeFileSync(
    join(options.dir, 'gateway.json'),
    JSON.stringify({
      gateway: {
        vendor: 'bench',
        versions: {
          v1: { upstream: options.upstream, openapi: './openapi-v1.json' },
          v2: { upstream: options.upstream, openapi: './openapi-v2.json' },
        },
        ...(options.nginx ? { nginx: options.nginx } : {}),
      },
      versions: { v1: { deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: '2099-01-01T00:00:00Z', replacement: 'v2' } },
      rateLimit: { max: 100_000_000, windowSeconds: 60 },
    }),
  );
}

/** `versionary gateway` (the built CLI) with v1 deprecated; `nodeArgs` go before the script (`--cpu-prof`). */
export async function startGateway(options: {
  dir: string;
  upstream: string;
  nodeArgs?: string[];
  /** The checkout whose `bin/versionary.js` runs (this one by default). */
  root?: string;
}): Promise<Proc> {
  writeGatewayConfig(options);
  const port = await freePort();
  const bin = join(options.root ?? root, 'bin/versionary.js');
  return start([process.execPath, ...(options.nodeArgs ?? []), bin, 'gateway'], {
    port,
    ready: '/readyz',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(options.dir, `gateway-${port}.db`)}`,
      VERSIONARY_ADMIN_KEY: adminKey,
      VERSIONARY_CONFIG: join(options.dir, 'gateway.json'),
      LOG_LEVEL: 'warn',
      VERSIONARY_SHUTDOWN_DELAY_MS: '0',
    },
  });
}

function report(options: {
  runs: Record<string, Measured[]>;
  upstreamCpus: Record<string, number[]>;
  nginx: boolean;
}): BenchReport {
  const r = medianRounds(options.runs);
  const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
  const ratio = (x: string, y: string) => (r[x] && r[y] ? r[x].rps / r[y].rps : Number.NaN);
  // CPU per request is the measure that holds on a shared machine: req/s moves with the load beside it.
  const cpuRatio = (x: string, y: string) => (r[x] && r[y] ? r[y].cpuPerRequest / r[x].cpuPerRequest : Number.NaN);
  const targets = [
    {
      target: '(g) ≥ 0.5 × (n) nginx',
      value: options.nginx ? round(ratio('g', 'n')) : 'nginx missing',
      met: ratio('g', 'n') >= 0.5,
    },
    // Issue 63's goals: the gateway does less framework work than its floor, so it can match it.
    {
      target: '(g) ≥ 1.0 × (xf), by CPU per request',
      value: round(cpuRatio('g', 'xf')),
      met: cpuRatio('g', 'xf') >= 1,
    },
    { target: '(g) ≥ 1.0 × (xf), by req/s', value: round(ratio('g', 'xf')), met: ratio('g', 'xf') >= 1 },
    {
      target: '(gd) ≥ 0.95 × (g), by CPU per request',
      value: round(cpuRatio('gd', 'g')),
      met: cpuRatio('gd', 'g') >= 0.95,
    },
    { target: '(gd) ≥ 0.95 × (g), by req/s', value: round(ratio('gd', 'g')), met: ratio('gd', 'g') >= 0.95 },
    { target: '(g) p99 < 10 ms at 50 connections', value: `${round(r.g?.p99 ?? NaN)} ms`, met: (r.g?.p99 ?? NaN) < 10 },
    {
      target: '(gd) p99 < 10 ms at 50 connections',
      value: `${round(r.gd?.p99 ?? NaN)} ms`,
      met: (r.gd?.p99 ?? NaN) < 10,
    },
    // A case left out of the run (`BENCH_GATEWAY_CASES`) leaves its targets out too.
  ].filter((t) => !String(t.value).includes('NaN'));
  log('\ngateway targets');
  for (const t of targets) log(`  ${t.met ? 'met   ' : 'MISSED'} ${t.target}: ${t.value}`);
  const rows = Object.entries(r).map(([id, m]) => ({
    case: cases[id]!.label,
    'req/s': Math.round(m.rps),
    'p50 ms': round(m.p50),
    'p99 ms': round(m.p99),
    'vs (n)': r.n ? round(m.rps / r.n.rps) : '',
    'vs (u)': r.u ? round(m.rps / r.u.rps) : '',
    'proxy CPU µs/req': id === 'u' ? '' : Math.round(m.cpuPerRequest),
    'CPU vs (xf)': id === 'u' || !r.xf ? '' : round(r.xf.cpuPerRequest / m.cpuPerRequest),
    'upstream CPU µs/req': Math.round(id === 'u' ? m.cpuPerRequest : middleOf(options.upstreamCpus[id])),
    'bad responses': m.unexpected + m.errors,
  }));
  return {
    title: `gateway: medians of ${rounds} interleaved rounds, ${seconds} s per case after ${warmup} s warm-up, 50 connections (${cpus()[0]?.model ?? 'unknown CPU'}; servers on core 0, load on core 1; Node ${process.version})`,
    rows,
    json: {
      seconds,
      rounds,
      connections: 50,
      cases: Object.fromEntries(
        Object.entries(r).map(([id, m]) => [
          id,
          {
            rps: Math.round(m.rps),
            p50Ms: round(m.p50),
            p99Ms: round(m.p99),
            cpuMicrosPerRequest: Math.round(m.cpuPerRequest),
            upstreamCpuMicrosPerRequest: Math.round(middleOf(options.upstreamCpus[id])),
          },
        ]),
      ),
      targets,
    },
  };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}
