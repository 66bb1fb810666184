/**
 * Profile the reference service on one case of the HTTP bench: the service runs with
 * `--cpu-prof`, autocannon drives `GET /api/v<n>/users/{id}` for `BENCH_SECONDS` (5), and the
 * profile's self time is summed by where it was spent (Versionary's files, each package, Node's
 * internals, garbage collection), then listed by function.
 *
 * @example
 * ```sh
 * npm run build && node --import tsx bench/profile.ts v2   # or v1, or by-hand (case p)
 * ```
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

// `v2` or `v1` profile the service; `by-hand` the same route written by hand (case p).
const target = process.argv[2] ?? 'v2';
const version = target === 'v1' ? 'v1' : 'v2';
const seconds = Number(process.env.BENCH_SECONDS ?? '5');
const dir = mkdtempSync(join(tmpdir(), 'versionary-profile-'));
const server = await spawnServer({
  kind: target === 'by-hand' ? 'by-hand' : 'service',
  profileDir: join(dir, 'prof'),
  env: {
    BENCH_DB: join(dir, 'service.db'),
    BENCH_SEED: '1000',
    BENCH_CONFIG: JSON.stringify({ rateLimit: { max: 100_000_000, windowSeconds: 60 } }),
    BENCH_KEYS: JSON.stringify([{ name: 'bench', roles: ['read', 'write'] }]),
  },
});
const spec = {
  id: version,
  label: `GET /api/${version}/users/{id}`,
  expect: 200,
  request: (n: number) => ({ method: 'GET' as const, path: `/api/${version}/users/${1 + ((n * 7919) % 1000)}` }),
};
const auth = { authorization: `Bearer ${server.keys.bench}` };
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
