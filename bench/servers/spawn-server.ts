import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ParentMessage } from './protocol.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** Options for {@link spawnServer}. */
export interface SpawnServerOptions {
  /** `service` (the reference service over SQLite), `bare` (the Fastify ceiling) or `plugin` (the library alone, case a2). */
  kind: 'service' | 'bare' | 'plugin' | 'cluster' | 'by-hand';
  /** Extra environment: `BENCH_CONFIG`, `BENCH_SEED`, `BENCH_KEYS`, `BENCH_DB`, `BENCH_RECORD_USAGE`. */
  env?: Record<string, string>;
  /** Write a V8 CPU profile (`--cpu-prof`) into this directory when the server stops. */
  profileDir?: string;
  /** Send the server's stdout (its log lines) to /dev/null. */
  discardStdout?: boolean;
  /** The Node binary to run the server with (another Node line); this process's by default. */
  execPath?: string;
}

/** A server running in a child process. */
export interface BenchServer {
  port: number;
  /** The child's process id (to pin it to a core, or read its CPU time from `/proc`). */
  pid: number;
  url: string;
  /** API keys the server created, by the names given in `BENCH_KEYS`. */
  keys: Record<string, string>;
  /** The child's `heapUsed`, in bytes; with `gc`, after a full collection. */
  heapUsed(options?: { gc?: boolean }): Promise<number>;
  /** CPU time the server has used since it started (user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  /** Users in the service's database. */
  countUsers(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Run a bench server in its own process, so the load generator (this process) and the server are
 * measured apart, and wait until it listens.
 *
 * @example
 * ```ts
 * const server = await spawnServer({ kind: 'service', env: { BENCH_SEED: '1000' } });
 * await server.stop();
 * ```
 */
export async function spawnServer(options: SpawnServerOptions): Promise<BenchServer> {
  const execArgv = ['--import', import.meta.resolve('tsx'), '--expose-gc'];
  if (options.profileDir) {
    mkdirSync(options.profileDir, { recursive: true });
    execArgv.push('--cpu-prof', '--cpu-prof-dir', options.profileDir);
  }
  const child = fork(join(here, `${options.kind}.ts`), [], {
    execArgv,
    env: { ...process.env, ...options.env },
    ...(options.execPath ? { execPath: options.execPath } : {}),
    stdio: ['ignore', options.discardStdout ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await nextMessage(child, 'ready', exited);
  const ask = async <T extends ChildMessage['type']>(message: ParentMessage, type: T) => {
    const answer = nextMessage(child, type, exited);
    child.send(message);
    return answer;
  };
  return {
    port: ready.port,
    pid: child.pid!,
    url: `http://127.0.0.1:${ready.port}`,
    keys: ready.keys,
    heapUsed: async (o = {}) => (await ask({ type: 'heap', gc: o.gc === true }, 'heap')).heapUsed,
    cpuMicros: async () => (await ask({ type: 'cpu' }, 'cpu')).micros,
    countUsers: async () => (await ask({ type: 'count' }, 'count')).users,
    stop: async () => {
      if (child.exitCode === null && child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
      await exited;
    },
  };
}

function nextMessage<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
  exited: Promise<void>,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as Extract<ChildMessage, { type: T }>);
    };
    child.on('message', onMessage);
    void exited.then(() => {
      child.off('message', onMessage);
      reject(new Error(`bench server exited (code ${child.exitCode}) before answering "${type}"`));
    });
  });
}
