import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './service-process.ts';

const pgBin = '/usr/lib/postgresql/15/bin';

/** A PostgreSQL server of the test's own, in a temporary directory, that the test may stop and start. */
export interface OwnPostgres {
  url: string;
  port: number;
  start(): Promise<void>;
  /** Fast shutdown (SIGINT): sessions are terminated, then the server exits. */
  stop(): Promise<void>;
  /** Stop for good and delete the data directory. */
  destroy(): Promise<void>;
}

/**
 * initdb into a temporary directory and start `postgres` on a spare port. As root, the server runs
 * as the `postgres` user, which initdb requires.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (command: string, args: string[]) =>
    asRoot
      ? spawn('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' })
      : spawn(command, args, { stdio: 'pipe' });
  const init = run(`${pgBin}/initdb`, ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  let initOutput = '';
  init.stdout!.on('data', (d) => {
    initOutput += String(d);
  });
  init.stderr!.on('data', (d) => {
    initOutput += String(d);
  });
  const [code] = await once(init, 'exit');
  if (code !== 0) throw new Error(`initdb failed: ${initOutput}`);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | undefined;
  const start = async () => {
    if (server && server.exitCode === null) return;
    server = run(`${pgBin}/postgres`, [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-h',
      '127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=100',
    ]);
    server.stdout!.resume();
    server.stderr!.resume();
    for (let i = 0; i < 200; i++) {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      const ok = await client.connect().then(
        () => true,
        () => false,
      );
      await client.end().catch(() => {});
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('own PostgreSQL did not start');
  };
  const stop = async () => {
    const current = server;
    server = undefined;
    if (!current || current.exitCode !== null) return;
    const exited = once(current, 'exit');
    // The postmaster's own pid: runuser, when it sits in between, does not pass the signal on.
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(Number.isInteger(postmaster) && postmaster > 0 ? postmaster : current.pid!, 'SIGINT');
    await exited;
  };
  await start();
  return {
    url,
    port,
    start,
    stop,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A redis-server of the test's own on a spare port. */
export interface OwnRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Start `redis-server` on a spare port, without persistence; `args` adds to its command line (`--requirepass`). */
export async function startOwnRedis(options: { args?: string[] } = {}): Promise<OwnRedis> {
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    if (server && server.exitCode === null) return;
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...(options.args ?? [])],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = createConnection(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('own redis-server did not start');
  };
  const stop = async () => {
    const current = server;
    server = undefined;
    if (!current || current.exitCode !== null) return;
    const exited = once(current, 'exit');
    current.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

/** A TCP proxy that can freeze: connections stay open and bytes stop flowing, as with a hung server. */
export interface FreezingProxy {
  port: number;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

/** Forward 127.0.0.1:<port> to a target; while frozen, nothing is forwarded either way (data waits). */
export async function startFreezingProxy(targetPort: number): Promise<FreezingProxy> {
  let frozen = false;
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    if (frozen) {
      client.pause();
      upstream.pause();
    }
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as { port: number }).port,
    freeze: () => {
      frozen = true;
      for (const [a, b] of pairs) {
        a.unpipe(b);
        b.unpipe(a);
        a.pause();
        b.pause();
      }
    },
    thaw: () => {
      frozen = false;
      for (const [a, b] of pairs) {
        a.pipe(b);
        b.pipe(a);
        a.resume();
        b.resume();
      }
    },
    close: async () => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
