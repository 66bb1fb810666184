import { Agent, request as httpRequest } from 'node:http';
import { cpus } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type BenchServer } from './servers/spawn-server.ts';
import type { BenchReport } from './types.ts';

const quick = process.env.BENCH_SECONDS !== undefined;
const seconds = Number(process.env.LOAD_SECONDS ?? (quick ? '20' : '60'));
const rate = Number(process.env.LOAD_RATE ?? '2000');
/** Heap is compared between this second and the end (both after a full GC). */
const heapFrom = Math.min(10, Math.floor(seconds / 3));
const seeded = 1000;
const limitedMax = 20;
const regular = ['client-1', 'client-2', 'client-3'];
const limitedShare = 0.05;
// Regular keys hold read and write (no override: the huge base limit); the limited key holds only
// read, whose override is small, and its window outlasts the run.
const config = JSON.stringify({
  rateLimit: { max: 1_000_000_000, windowSeconds: 3600, roles: { read: { max: limitedMax } } },
});

interface Sent {
  client: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}
interface Answer {
  status: number;
  body: string;
}

/**
 * The load test: `LOAD_SECONDS` (60) at `LOAD_RATE` (2,000) requests per second, open loop (each
 * request leaves on schedule whether or not earlier ones have answered), mixing reads and writes
 * over v1 and v2 from three API keys plus one key that is over its rate limit for the whole run.
 * It checks: no 5xx, every request answered, every 201 readable afterwards with the user count
 * matching, the limited client answered 429 and nothing else (and no other client limited), and
 * the server's heap (after a full GC) growing under 10% from second 10 to the end. The process
 * exits non-zero when a check fails.
 *
 * @example
 * ```sh
 * npm run bench -- load
 * LOAD_SECONDS=20 LOAD_RATE=1000 npm run bench -- load
 * ```
 */
export async function benchLoad(): Promise<BenchReport> {
  log(
    `load: ${seconds} s at ${rate} req/s, open loop; clients ${regular.join(', ')} and "limited" (${limitedShare * 100}% of requests, over its limit)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'versionary-load-'));
  const server = await spawnServer({
    kind: 'service',
    env: {
      BENCH_DB: join(dir, 'load.db'),
      BENCH_SEED: String(seeded),
      BENCH_CONFIG: config,
      BENCH_KEYS: JSON.stringify([
        ...regular.map((name) => ({ name, roles: ['read', 'write'] })),
        { name: 'limited', roles: ['read'] },
      ]),
    },
  });
  try {
    const client = createClient(server);
    // Spend the limited client's whole budget first: from now on it is over its limit.
    for (let i = 0; i < limitedMax; i++)
      await client.send({ client: 'limited', method: 'GET', path: '/api/v2/users/1' });
    const run = await drive({ server, client });
    const verification = await verify({ server, client, created: run.created });
    return report({ run, verification });
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function createClient(server: BenchServer) {
  const agents = new Map<string, Agent>();
  const agentOf = (name: string) =>
    agents.get(name) ?? agents.set(name, new Agent({ keepAlive: true, maxSockets: 64 })).get(name)!;
  const send = (sent: Sent) =>
    new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        server.url + sent.path,
        {
          method: sent.method,
          agent: agentOf(sent.client),
          timeout: 10_000,
          headers: {
            authorization: `Bearer ${server.keys[sent.client]}`,
            ...(sent.body ? { 'content-type': 'application/json' } : {}),
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(sent.body);
    });
  return { send, close: () => agents.forEach((a) => a.destroy()) };
}

type Client = ReturnType<typeof createClient>;

/** What the run saw. */
interface Run {
  sent: number;
  answered: number;
  errors: number;
  statuses: Map<string, Map<number, number>>;
  created: Array<{ id: number; name: string }>;
  latencies: number[];
  heap: Array<{ second: number; heapUsed: number }>;
  heapAtStart: number;
  heapAtEnd: number;
  elapsed: number;
}

async function drive(options: { server: BenchServer; client: Client }): Promise<Run> {
  const { server, client } = options;
  const run: Run = {
    sent: 0,
    answered: 0,
    errors: 0,
    statuses: new Map(),
    created: [],
    latencies: [],
    heap: [],
    heapAtStart: 0,
    heapAtEnd: 0,
    elapsed: 0,
  };
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  const pick = (i: number): Sent => {
    if (Math.random() < limitedShare)
      return { client: 'limited', method: 'GET', path: `/api/v${1 + (i % 2)}/users/${userId(run)}` };
    const name = regular[i % regular.length]!;
    const r = Math.random();
    if (r < 0.35) return { client: name, method: 'GET', path: `/api/v2/users/${userId(run)}` };
    if (r < 0.6) return { client: name, method: 'GET', path: `/api/v1/users/${userId(run)}` };
    if (r < 0.7) return { client: name, method: 'GET', path: '/api/v2/users?limit=20' };
    if (r < 0.75) return { client: name, method: 'GET', path: '/api/v1/users?limit=20' };
    const version = r < 0.9 ? 'v2' : 'v1';
    return {
      client: name,
      method: 'POST',
      path: `/api/${version}/users`,
      body: JSON.stringify({ name: `load ${name} ${i}` }),
    };
  };
  const fire = (scheduledAt: number) => {
    const sent = pick(n++);
    run.sent++;
    const job = client
      .send(sent)
      .then(
        (answer) => {
          run.answered++;
          run.latencies.push(performance.now() - scheduledAt);
          const byStatus = run.statuses.get(sent.client) ?? run.statuses.set(sent.client, new Map()).get(sent.client)!;
          byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
          if (answer.status === 201)
            run.created.push({
              id: (JSON.parse(answer.body) as { id: number }).id,
              name: (JSON.parse(sent.body!) as { name: string }).name,
            });
        },
        () => {
          run.errors++;
        },
      )
      .finally(() => inFlight.delete(job));
    inFlight.add(job);
  };

  const start = performance.now();
  let nextSecond = 1;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = (performance.now() - start) / 1000;
      if (elapsed >= seconds) return resolve();
      // Open loop: send what the schedule says is due, each timed from when it was due.
      const due = Math.floor(elapsed * rate);
      while (run.sent < due) fire(start + (run.sent / rate) * 1000);
      if (elapsed >= nextSecond) {
        const second = nextSecond++;
        void server.heapUsed({ gc: second === heapFrom }).then((heapUsed) => {
          run.heap.push({ second, heapUsed });
          if (second === heapFrom) run.heapAtStart = heapUsed;
        });
        if (second % 10 === 0)
          log(`  ${second} s: ${run.sent} sent, ${run.answered} answered, ${inFlight.size} in flight`);
      }
      setTimeout(tick, 1);
    };
    tick();
  });
  run.heapAtEnd = await server.heapUsed({ gc: true });
  run.elapsed = (performance.now() - start) / 1000;
  await Promise.all(inFlight);
  return run;
}

function userId(run: Run): number {
  // Some reads go to users created during the run: a write is readable at once, in both versions.
  if (run.created.length > 0 && Math.random() < 0.3)
    return run.created[Math.floor(Math.random() * run.created.length)]!.id;
  return 1 + Math.floor(Math.random() * seeded);
}

/** After the run: is every created user readable, with its name, and does the count match? */
async function verify(options: { server: BenchServer; client: Client; created: Run['created'] }) {
  const { server, client, created } = options;
  let missing = 0;
  let next = 0;
  const worker = async () => {
    while (next < created.length) {
      const user = created[next++]!;
      const answer = await client
        .send({ client: 'client-1', method: 'GET', path: `/api/v2/users/${user.id}` })
        .catch(() => ({ status: 0, body: '' }));
      if (answer.status !== 200 || (JSON.parse(answer.body) as { name: string }).name !== user.name) missing++;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const users = await server.countUsers();
  client.close();
  return { missing, users, expectedUsers: seeded + created.length };
}

function report(options: { run: Run; verification: Awaited<ReturnType<typeof verify>> }): BenchReport {
  const { run, verification } = options;
  const count = (client: string, test: (status: number) => boolean) =>
    [...(run.statuses.get(client) ?? new Map<number, number>())].reduce(
      (s, [status, c]) => s + (test(status) ? c : 0),
      0,
    );
  const all = ['limited', ...regular];
  const fivexx = all.reduce((s, c) => s + count(c, (status) => status >= 500), 0);
  const limitedOther = count('limited', (s) => s !== 429);
  const regularLimited = regular.reduce((s, c) => s + count(c, (status) => status === 429), 0);
  const regularOther = regular.reduce((s, c) => s + count(c, (status) => status !== 200 && status !== 201), 0);
  const growth = run.heapAtStart > 0 ? run.heapAtEnd / run.heapAtStart - 1 : Number.NaN;
  const sorted = Float64Array.from(run.latencies).sort();
  const at = (q: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 100) / 100;
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  const checks = [
    { check: 'no 5xx', value: fivexx, pass: fivexx === 0 },
    {
      check: 'every request answered (no socket errors or timeouts)',
      value: `${run.errors} errors of ${run.sent}`,
      pass: run.errors === 0 && run.answered === run.sent,
    },
    {
      check: 'every 201 readable afterwards, same name',
      value: `${verification.missing} missing of ${run.created.length}`,
      pass: verification.missing === 0,
    },
    {
      check: 'user count = seeded + 201s',
      value: `${verification.users} = ${verification.expectedUsers}`,
      pass: verification.users === verification.expectedUsers,
    },
    {
      check: 'limited client: 429 and nothing else',
      value: `${count('limited', (s) => s === 429)} × 429, ${limitedOther} other`,
      pass: limitedOther === 0 && count('limited', () => true) > 0,
    },
    {
      check: 'other clients: never 429, only 200/201',
      value: `${regularLimited} × 429, ${regularOther} other`,
      pass: regularLimited === 0 && regularOther === 0,
    },
    {
      check: `server heap growth, second ${heapFrom} → ${seconds} (after GC) < 10%`,
      value: `${mb(run.heapAtStart)} → ${mb(run.heapAtEnd)} (${(growth * 100).toFixed(1)}%)`,
      pass: growth < 0.1,
    },
  ];
  const failed = checks.filter((c) => !c.pass);
  log(
    `\nload: ${run.sent} sent in ${run.elapsed.toFixed(1)} s (${Math.round(run.sent / run.elapsed)}/s), latency from schedule p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
  );
  for (const c of all)
    log(
      `  ${c}: ${[...(run.statuses.get(c) ?? [])]
        .sort(([a], [b]) => a - b)
        .map(([s, k]) => `${k} × ${s}`)
        .join(', ')}`,
    );
  log(
    `  heap (no GC) by second: ${run.heap
      .filter((h) => h.second % 10 === 0 || h.second === heapFrom)
      .sort((a, b) => a.second - b.second)
      .map((h) => `${h.second}s ${mb(h.heapUsed)}`)
      .join(', ')}`,
  );
  if (failed.length > 0) {
    log(`load: ${failed.length} check(s) FAILED: ${failed.map((c) => c.check).join('; ')}`);
    // The dispatcher sets the exit code after every part has run; a failed check overrides it at exit.
    process.on('exit', () => {
      process.exitCode = 1;
    });
  }
  return {
    title: `load: ${seconds} s at ${rate} req/s (${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores shared by server and load generator)`,
    rows: checks.map((c) => ({ check: c.check, value: c.value, result: c.pass ? 'pass' : 'FAIL' })),
    json: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      seconds,
      targetRate: rate,
      sent: run.sent,
      answered: run.answered,
      achievedRate: Math.round(run.sent / run.elapsed),
      latencyFromScheduleMs: { p50: at(0.5), p99: at(0.99) },
      statuses: Object.fromEntries([...run.statuses].map(([c, m]) => [c, Object.fromEntries(m)])),
      created: run.created.length,
      users: verification.users,
      heap: {
        from: heapFrom,
        fromBytes: run.heapAtStart,
        endBytes: run.heapAtEnd,
        growthPercent: Math.round(growth * 1000) / 10,
        samples: run.heap,
      },
      checks,
      passed: failed.length === 0,
    },
  };
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}
