import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import pg from 'pg';

/** The machine's PostgreSQL and Redis (see `.ci/run`). */
export const sharedPostgresUrl = process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const sharedRedisUrl = process.env.VERSIONARY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const root = new URL('../..', import.meta.url).pathname;

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A running service process, spawned the way production runs it (`node --import tsx src/server.ts`). */
export interface ServiceProcess {
  child: ChildProcess;
  base: string;
  port: number;
  /** Everything it wrote to stdout (JSON log lines) and stderr. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawn the service on a free port and wait until `/livez` answers (and `/readyz`, unless told not to). */
export function spawnService(options: SpawnOptions): Promise<ServiceProcess> {
  return onFreePort((port) => spawnOnce(options, port));
}

/**
 * Start something on a free port, trying another when it was taken first. A port found free can
 * be taken before the child binds it (another test's outgoing connection draws from the same
 * range): then the child exits with EADDRINUSE.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt === 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

interface SpawnOptions {
  env: Record<string, string>;
  /** `dist`: run the build, `node dist/server.js`, as production does (run `npm run build` first); `src` by default. */
  entry?: 'src' | 'dist';
  waitReady?: boolean;
  timeoutMs?: number;
}

async function spawnOnce(options: SpawnOptions, port: number): Promise<ServiceProcess> {
  const args = options.entry === 'dist' ? ['dist/server.js'] : ['--import', 'tsx', 'src/server.ts'];
  const child = spawn(process.execPath, args, {
    cwd: root,
    // No delay before the drain (5 s by default): only the tests of the delay ask for one.
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      VERSIONARY_CONFIG: '',
      VERSIONARY_SHUTDOWN_DELAY_MS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += String(d);
  });
  child.stderr!.on('data', (d) => {
    output += String(d);
  });
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const base = `http://127.0.0.1:${port}`;
  const path = options.waitReady === false ? '/livez' : '/readyz';
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let up = false;
  while (!up && Date.now() < deadline && child.exitCode === null) {
    up = await fetch(`${base}${path}`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 100));
  }
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(`service did not come up on ${base}${path}:\n${output.slice(-3000)}`);
  }
  return {
    child,
    base,
    port,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A fresh PostgreSQL schema name on the shared server, dropped by `drop()`. */
export function throwawaySchema(url = sharedPostgresUrl): { name: string; drop(): Promise<void> } {
  const name = `vtest_${randomBytes(6).toString('hex')}`;
  return {
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      await client.end();
    },
  };
}

/** Poll `check` until it returns true or `timeoutMs` passes; resolves with the milliseconds it took. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
