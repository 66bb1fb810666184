import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/service-process.ts';
import { adminKey, start, startGateway, writeGatewayConfig, type Proc } from './gateway.ts';
import { drive, medianRounds, middleOf, type HttpCase, type Measured } from './http.ts';
import type { BenchReport } from './types.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? '10');
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? '3'));
const warmup = Math.min(3, Math.max(1, Math.floor(seconds / 2)));
const nginxBin = '/usr/sbin/nginx';
const root = new URL('..', import.meta.url).pathname;
const ticks = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;

/** User + system CPU of `pid` and its children (nginx's master and workers), in µs. */
function treeCpu(pid: number): number {
  const own = (stat: string) => {
    const fields = stat.split(') ')[1]!.split(' ');
    return { ppid: Number(fields[1]), cpu: ((Number(fields[11]) + Number(fields[12])) / ticks) * 1e6 };
  };
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const s = own(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (Number(entry) === pid || s.ppid === pid) total += s.cpu;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

const user = (n: number) => 1 + (n % 1000);
const caseOf = (id: string, label: string, version: string): HttpCase => ({
  id,
  label,
  expect: 200,
  request: (n) => ({ method: 'GET', path: `/api/${version}/users/${user(n)}` }),
});
const cases: Record<string, HttpCase> = {
  n: caseOf('n', '(n) nginx proxy_pass', 'v2'),
  vn: caseOf('vn', "(vn) nginx with Versionary's files, current v2", 'v2'),
  vnd: caseOf('vnd', "(vnd) nginx with Versionary's files, deprecated v1", 'v1'),
  vnr: caseOf('vnr', "(vnr) nginx with Versionary's files, rate limits counted in Redis, current v2", 'v2'),
  g: caseOf('g', '(g) versionary gateway, current v2', 'v2'),
};

/** nginx on `conf`, master and one worker, the whole tree's CPU counted. */
async function startNginx(options: { dir: string; conf: string; port: number }): Promise<Proc> {
  const proc = await start([nginxBin, '-p', options.dir, '-c', options.conf, '-g', 'daemon off;'], {
    port: options.port,
    ready: '/api/v2/users/1',
  }).catch((error: unknown) => {
    // nginx says why in its error log, not on stderr.
    const errors = join(options.dir, 'error.log');
    const said = existsSync(errors) ? readFileSync(errors, 'utf8').slice(-2000) : '';
    throw new Error(`${(error as Error).message}\n${said}`);
  });
  return { ...proc, cpuMicros: () => treeCpu(proc.pid) };
}

/** nginx's own temp paths, pid and error log inside `dir`, as a non-root nginx needs. */
function nginxPaths(dir: string): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  return `${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`;
}

/** Plain nginx `proxy_pass` in front of the upstream, with the access log the rendered `nginx.conf` keeps too: the floor. */
async function startPlainNginx(options: { dir: string; upstream: string }): Promise<Proc> {
  const dir = join(options.dir, 'plain');
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log ${join(dir, 'access.log')}; ${nginxPaths(dir)}
  upstream api { server ${options.upstream.replace('http://', '')}; keepalive 64; }
  server { listen 127.0.0.1:${port}; location / { proxy_pass http://api; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $host; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; } }
}
`,
  );
  return startNginx({ dir, conf, port });
}

/**
 * nginx in front of one upstream, plain (n) and with the files `versionary nginx` renders, on the
 * current version (vn) and on a deprecated one (vnd), beside `versionary gateway` (g): CPU per
 * request of nginx's master and worker (from `/proc/<pid>/stat`), and of the control plane that
 * records the usage nginx sends each second, req/s and p99 at 50 connections. Servers on core 0, the load on core 1;
 * rounds interleave the cases; medians are reported.
 *
 * @example
 * ```sh
 * npm run bench -- nginx
 * ```
 */
export async function benchNginx(): Promise<BenchReport> {
  spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)]);
  if (!existsSync(join(root, 'dist/cli/main.js')))
    throw new Error('the nginx bench runs the built CLI: run `npm run build` first');
  if (!existsSync(nginxBin)) throw new Error(`the nginx bench needs ${nginxBin}`);
  const dir = mkdtempSync(join(tmpdir(), 'versionary-bench-nginx-'));
  // nginx's workers run as `nobody` when the bench runs as root: they must reach the temp paths inside.
  chmodSync(dir, 0o755);
  const procs: Proc[] = [];
  try {
    const upPort = await freePort();
    const upstream = await start([process.execPath, join(root, 'bench/servers/fast-upstream.mjs'), String(upPort)], {
      port: upPort,
      ready: '/api/v2/users/1',
    });
    procs.push(upstream);
    const plain = await startPlainNginx({ dir, upstream: upstream.url });
    procs.push(plain);
    const gateway = await startGateway({ dir, upstream: upstream.url });
    procs.push(gateway);
    const auth = { authorization: `Bearer ${adminKey}` };
    const versionary = await startVersionaryNginx({ dir, upstream: upstream.url, procs });
    // The same files rendered with the Redis the gateways share: every call counted there (a key of the bench's own).
    const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const withRedis = versionary
      ? await startVersionaryNginx({
          dir,
          upstream: upstream.url,
          procs,
          name: 'versionary-redis',
          env: { VERSIONARY_REDIS_URL: redisUrl, VERSIONARY_REDIS_PREFIX: `bench-${process.pid}:` },
        }).catch((error: unknown) => {
          log(`  (vnr) left out: ${(error as Error).message.split('\n')[0]}`);
          return undefined;
        })
      : undefined;
    const runs: Record<string, Measured[]> = {};
    const sideCpus: Record<string, number[]> = {};
    log(
      `nginx: ${seconds} s per case after ${warmup} s warm-up, 50 connections, ${rounds} interleaved rounds; servers on core 0, load on core 1`,
    );
    for (let round = 1; round <= rounds; round++) {
      const all = [
        { id: 'n', target: plain, headers: {}, side: undefined },
        ...(versionary
          ? [
              { id: 'vn', target: versionary.nginx, headers: versionary.headers, side: versionary.control },
              { id: 'vnd', target: versionary.nginx, headers: versionary.headers, side: versionary.control },
            ]
          : []),
        ...(withRedis
          ? [{ id: 'vnr', target: withRedis.nginx, headers: withRedis.headers, side: withRedis.control }]
          : []),
        { id: 'g', target: gateway, headers: auth, side: undefined },
      ];
      for (const c of all) {
        const spec = cases[c.id]!;
        await drive({ server: c.target, spec, auth: c.headers, duration: warmup });
        const before = { proxy: c.target.cpuMicros(), side: c.side?.cpuMicros() ?? 0 };
        const m = await drive({ server: c.target, spec, auth: c.headers, duration: seconds });
        const cpu = (c.target.cpuMicros() - before.proxy) / Math.max(1, m.requests);
        // nginx sends the run's last calls within a second, and the control plane records them: a second more.
        if (c.side) await new Promise((r) => setTimeout(r, 1500));
        const side = c.side ? (c.side.cpuMicros() - before.side) / Math.max(1, m.requests) : 0;
        (runs[c.id] ??= []).push({ ...m, cpuPerRequest: cpu });
        (sideCpus[c.id] ??= []).push(side);
        log(
          `  ${spec.label} [round ${round}]: ${Math.round(m.rps)} req/s, p99 ${m.p99.toFixed(2)} ms, CPU ${Math.round(cpu)} µs/req${c.side ? ` (+ control plane ${Math.round(side)})` : ''}${m.unexpected || m.errors ? `, ${m.unexpected} unexpected, ${m.errors} errors` : ''}`,
        );
      }
    }
    return report({ runs, sideCpus, versionary: versionary !== undefined });
  } finally {
    for (const p of procs.reverse()) {
      p.child.kill('SIGTERM');
      if (p.child.exitCode === null) await new Promise((r) => p.child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The data plane as users run it: the control plane (`versionary gateway --control-plane`, which
 * answers nginx's key checks and records the usage it sends) on the bench's gateway config with
 * `gateway.nginx`, the files `versionary nginx` renders from it, and nginx on the rendered
 * `nginx.conf`. Undefined (with the reason logged) when this build cannot render them.
 */
async function startVersionaryNginx(options: {
  dir: string;
  upstream: string;
  procs: Proc[];
  /** The folder under `dir`; `versionary` by default. */
  name?: string;
  /** More of the control plane's (and the render's) environment: `VERSIONARY_REDIS_URL`. */
  env?: Record<string, string>;
}): Promise<{ nginx: Proc; control: Proc; headers: Record<string, string> } | undefined> {
  const bin = join(root, 'bin/versionary.js');
  const help = spawnSync(process.execPath, [bin, 'nginx', '--help'], { encoding: 'utf8' });
  if (help.status !== 0) {
    log(`  versionary nginx is not in this build: ${help.stderr.trim().split('\n')[0]}`);
    return undefined;
  }
  const dir = join(options.dir, options.name ?? 'versionary');
  const out = join(dir, 'nginx');
  mkdirSync(join(out, 'tmp'), { recursive: true });
  const controlPort = await freePort();
  const config = join(dir, 'gateway.json');
  writeGatewayConfig({
    dir,
    upstream: options.upstream,
    nginx: { out, control: `http://127.0.0.1:${controlPort}` },
  });
  const env = {
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'control.db')}`,
    VERSIONARY_ADMIN_KEY: adminKey,
    VERSIONARY_CONFIG: config,
    LOG_LEVEL: 'warn',
    VERSIONARY_SHUTDOWN_DELAY_MS: '0',
    ...options.env,
  };
  const control = await start([process.execPath, bin, 'gateway', '--control-plane'], {
    port: controlPort,
    ready: '/readyz',
    env: { ...env, PORT: String(controlPort) },
  });
  options.procs.push(control);
  // nginx's port is picked once the control plane holds its own: two free ports asked at once can be one.
  const listen = await freePort();
  const rendered = spawnSync(process.execPath, [bin, 'nginx', '--config', config, '--listen', String(listen)], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (rendered.status !== 0) throw new Error(`versionary nginx failed: ${rendered.stderr}${rendered.stdout}`);
  const nginx = await startNginx({ dir: out, conf: join(out, 'nginx.conf'), port: listen });
  options.procs.push(nginx);
  const headers = { authorization: `Bearer ${adminKey}` };
  const deprecated = await fetch(`${nginx.url}/api/v1/users/1`, { headers });
  if (deprecated.status !== 200 || !deprecated.headers.get('deprecation'))
    throw new Error(`nginx's v1 answered ${deprecated.status} without Deprecation: ${await deprecated.text()}`);
  return { nginx, control, headers };
}

function report(options: {
  runs: Record<string, Measured[]>;
  sideCpus: Record<string, number[]>;
  versionary: boolean;
}): BenchReport {
  const r = medianRounds(options.runs);
  const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
  // CPU per request holds on a shared machine where req/s moves with the load beside it: a ratio
  // of work per request, as "n requests for x's CPU per request of y's".
  const cpuRatio = (x: string, y: string) => (r[x] && r[y] ? r[y].cpuPerRequest / r[x].cpuPerRequest : Number.NaN);
  const rpsRatio = (x: string, y: string) => (r[x] && r[y] ? r[x].rps / r[y].rps : Number.NaN);
  const targets = [
    {
      target: '(vn) ≥ 0.8 × (n), by CPU per request',
      value: round(cpuRatio('vn', 'n')),
      met: cpuRatio('vn', 'n') >= 0.8,
    },
    { target: '(vn) ≥ 0.8 × (n), by req/s', value: round(rpsRatio('vn', 'n')), met: rpsRatio('vn', 'n') >= 0.8 },
    {
      target: '(vnd) ≥ 0.95 × (vn), by CPU per request',
      value: round(cpuRatio('vnd', 'vn')),
      met: cpuRatio('vnd', 'vn') >= 0.95,
    },
    {
      target: '(vnd) ≥ 0.95 × (vn), by req/s',
      value: round(rpsRatio('vnd', 'vn')),
      met: rpsRatio('vnd', 'vn') >= 0.95,
    },
    // Reported, not a gate: each call waits for one round trip to Redis.
    { target: '(vnr) ≥ 0.6 × (n), by req/s', value: round(rpsRatio('vnr', 'n')), met: rpsRatio('vnr', 'n') >= 0.6 },
    {
      target: '(vnr) ≥ 0.6 × (n), by CPU per request',
      value: round(cpuRatio('vnr', 'n')),
      met: cpuRatio('vnr', 'n') >= 0.6,
    },
    { target: '(vn) p99 < 10 ms', value: `${round(r.vn?.p99 ?? NaN)} ms`, met: (r.vn?.p99 ?? NaN) < 10 },
    { target: '(vnd) p99 < 10 ms', value: `${round(r.vnd?.p99 ?? NaN)} ms`, met: (r.vnd?.p99 ?? NaN) < 10 },
  ].filter((t) => !String(t.value).includes('NaN'));
  log('\nnginx targets');
  for (const t of targets) log(`  ${t.met ? 'met   ' : 'MISSED'} ${t.target}: ${t.value}`);
  if (!options.versionary) log('  (vn) and (vnd) left out: `versionary nginx` did not render');
  const rows = Object.entries(r).map(([id, m]) => ({
    case: cases[id]!.label,
    'req/s': Math.round(m.rps),
    'p50 ms': round(m.p50),
    'p99 ms': round(m.p99),
    'req/s vs (n)': r.n ? round(m.rps / r.n.rps) : '',
    'CPU µs/req': Math.round(m.cpuPerRequest),
    'CPU vs (n)': r.n ? round(r.n.cpuPerRequest / m.cpuPerRequest) : '',
    'control plane CPU µs/req': options.sideCpus[id]?.some((x) => x > 0)
      ? round(middleOf(options.sideCpus[id]), 1)
      : '',
    'bad responses': m.unexpected + m.errors,
  }));
  return {
    title: `nginx: medians of ${rounds} interleaved rounds, ${seconds} s per case after ${warmup} s warm-up, 50 connections (${cpus()[0]?.model ?? 'unknown CPU'}; servers on core 0, load on core 1; Node ${process.version}; a shared, loaded machine)`,
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
            controlPlaneCpuMicrosPerRequest: round(middleOf(options.sideCpus[id]), 1),
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
