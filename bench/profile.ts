/**
 * Profile the reference service (or the gateway) on one case of the bench: the server runs with
 * `--cpu-prof`, autocannon drives the case for `BENCH_SECONDS` (5), and the
 * profile's self time is summed by where it was spent (Versionary's files, each package, Node's
 * internals, garbage collection), then listed by function.
 *
 * @example
 * ```sh
 * npm run build && node --import tsx bench/profile.ts v2   # or v1, by-hand (case p), list, by-hand-list, gateway, gateway-v1
 * ```
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '../test/support/service-process.ts';
import { adminKey, start, startGateway } from './gateway.ts';
import { drive } from './http.ts';
import { spawnServer } from './servers/spawn-server.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  startTime: number;
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

// `v2` or `v1` profile the service; `by-hand` the same route written by hand (case p); `gateway`
// and `gateway-v1` profile `versionary gateway` (built) in front of the bench's upstream.
const target = process.argv[2] ?? 'v2';
const version = target.endsWith('v1') ? 'v1' : 'v2';
const seconds = Number(process.env.BENCH_SECONDS ?? '5');
const dir = mkdtempSync(join(tmpdir(), 'versionary-profile-'));
// `list` and `by-hand-list` profile the page of case (d) and its hand-written peer.
const list = target.endsWith('list');
const spec = {
  id: version,
  label: `${target.startsWith('gateway') ? 'gateway ' : ''}GET /api/${version}/users${list ? '?limit=20&fields=id,name' : '/{id}'}`,
  expect: 200,
  request: (n: number) => ({
    method: 'GET' as const,
    path: list ? '/api/v2/users?limit=20&fields=id,name' : `/api/${version}/users/${1 + ((n * 7919) % 1000)}`,
  }),
};
const { server, auth } = target.startsWith('gateway') ? await gatewayServer() : await serviceServer();
await drive({ server, spec, auth, duration: 1 });
const cpuBefore = await server.cpuMicros();
const measured = await drive({ server, spec, auth, duration: seconds });
const cpu = (await server.cpuMicros()) - cpuBefore;
await server.stop();
const file = readdirSync(join(dir, 'prof')).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(join(dir, 'prof', file), 'utf8')) as CpuProfile;
rmSync(dir, { recursive: true, force: true });

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
// Only the measured run: the profile also holds start-up (module and schema compiling) and the stop.
const from = profile.endTime - (seconds + 0.5) * 1e6;
const to = profile.endTime - 0.5e6;
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  if (at < from || at > to) continue;
  self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const idle = new Set(['(idle)', '(program)']);
const where = (node: ProfileNode) => {
  const { url, functionName } = node.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (!url) return `native ${functionName || '(anonymous)'}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(?:dist|src)\/(.+)$/.exec(url);
  return own ? `versionary ${own[1]}` : url;
};
const groups = new Map<string, number>();
const functions = new Map<string, number>();
let busy = 0;
for (const [id, micros] of self) {
  const node = byId.get(id)!;
  if (idle.has(node.callFrame.functionName)) continue;
  busy += micros;
  const group = where(node);
  groups.set(group, (groups.get(group) ?? 0) + micros);
  const name = `${node.callFrame.functionName || '(anonymous)'} ${group}:${node.callFrame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + micros);
}
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, micros]) => `  ${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
const versionary = [...groups].filter(([g]) => g.startsWith('versionary ')).reduce((sum, [, m]) => sum + m, 0);
console.log(
  `${spec.label}: ${Math.round(measured.rps)} req/s, p99 ${measured.p99.toFixed(2)} ms, ` +
    `server CPU ${Math.round(cpu / measured.requests)} µs/request (profiled, so slower than the bench)\n` +
    `Versionary's own files: ${((100 * versionary) / busy).toFixed(1)}% of busy time\n\nBy place:\n${top(groups, 25)}\n\nBy function:\n${top(functions, 40)}`,
);

interface Profiled {
  server: { url: string; cpuMicros(): Promise<number> | number; stop(): Promise<void> };
  auth: Record<string, string>;
}

async function serviceServer(): Promise<Profiled> {
  const server = await spawnServer({
    kind: target.startsWith('by-hand') ? 'by-hand' : 'service',
    profileDir: join(dir, 'prof'),
    env: {
      BENCH_DB: join(dir, 'service.db'),
      BENCH_SEED: '1000',
      BENCH_CONFIG: JSON.stringify({ rateLimit: { max: 100_000_000, windowSeconds: 60 } }),
      BENCH_KEYS: JSON.stringify([{ name: 'bench', roles: ['read', 'write'] }]),
    },
  });
  return { server, auth: { authorization: `Bearer ${server.keys.bench}` } };
}

async function gatewayServer(): Promise<Profiled> {
  const upPort = await freePort();
  const upstream = await start(
    [process.execPath, new URL('servers/fast-upstream.mjs', import.meta.url).pathname, String(upPort)],
    {
      port: upPort,
      ready: '/api/v2/users/1',
    },
  );
  const gateway = await startGateway({
    dir,
    upstream: upstream.url,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', join(dir, 'prof')],
  });
  const stop = async (child: ChildProcess) => {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  return {
    server: {
      url: gateway.url,
      cpuMicros: gateway.cpuMicros,
      stop: async () => {
        await stop(gateway.child);
        await stop(upstream.child);
      },
    },
    auth: { authorization: `Bearer ${adminKey}` },
  };
}
