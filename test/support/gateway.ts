import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeGateway } from '../../src/gateway/composition.ts';
import { startService } from '../../src/compose/start-service.ts';
import { after, before } from 'node:test';
import { onFreePort } from './service-process.ts';

const script = new URL('../../examples/gateway/upstream.py', import.meta.url).pathname;
const bin = new URL('../../bin/versionary.js', import.meta.url).pathname;

/** The Python upstream (`examples/gateway/upstream.py`), on a port of its own. */
export interface PythonUpstream {
  url: string;
  port: number;
  /** Every request target the upstream has received so far, in order. */
  received(): Promise<string[]>;
  stop(): Promise<void>;
}

/** Start the Python standard-library upstream (or another script of the same protocol) and wait until it listens. */
export async function startPythonUpstream(options: { script?: string } = {}): Promise<PythonUpstream> {
  // Port 0: the upstream binds a port the kernel picks and prints it. A port found free first and
  // bound later can be taken in between by another test's outgoing connection.
  const child = spawn('python3', [options.script ?? script, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    // The line can arrive in more than one chunk ("ready" and " 41531\n" have been seen apart):
    // read the port only from a whole line.
    let output = '';
    child.stdout!.on('data', (d) => {
      output += String(d);
      const ready = /^ready (\d+)\n/m.exec(output);
      if (ready) resolve(Number(ready[1]));
    });
    child.once('exit', (code) => reject(new Error(`python upstream exited with ${code}`)));
    // Never wait forever: a start that does not print its port fails the suite, naming what it printed.
    setTimeout(
      () => reject(new Error(`python upstream printed no port in 15 s: ${JSON.stringify(output)}`)),
      15_000,
    ).unref();
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received: async () => (await fetch(`http://127.0.0.1:${port}/_received`)).json() as Promise<string[]>,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

const example = new URL('../../examples/gateway/', import.meta.url).pathname;

/**
 * The upstream's OpenAPI document for one version (`examples/gateway/openapi-<version>.json`), as
 * a team would write it: paths in full.
 */
export function upstreamDocument(version: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(example, `openapi-${version}.json`), 'utf8')) as Record<string, unknown>;
}

/**
 * An `editDocument` that declares the Python upstream's paths for transport tests (`/cookies`,
 * `/hop`, `/empty`, `/early`) in each version's document: the gateway forwards only what a
 * document declares.
 */
export function declareTransportPaths(version: string, document: Record<string, unknown>): void {
  const paths = document.paths as Record<string, unknown>;
  const operation = (id: string) => ({ operationId: `${id}${version}`, responses: { '200': { description: id } } });
  const upload = (id: string) => ({
    ...operation(id),
    requestBody: { content: { 'application/octet-stream': {} } },
  });
  paths[`/api/${version}/cookies`] = { get: operation('cookies') };
  paths[`/api/${version}/hop`] = { get: operation('hop') };
  paths[`/api/${version}/empty`] = { post: upload('empty') };
  paths[`/api/${version}/early`] = { post: upload('early') };
}

/** A gateway started through the real composition (`startService` with `composeGateway`), as `versionary gateway` runs it. */
export interface TestGateway {
  base: string;
  dir: string;
  stop(): Promise<number>;
}

/** The admin key every test gateway accepts. */
export const gatewayAdminKey = 'gateway-admin-key-0123456789';

/** Options of {@link startTestGateway} and {@link spawnGateway}. */
export interface GatewayOptions {
  upstream: string;
  /** Merged into the `gateway` section. */
  gateway?: Record<string, unknown>;
  /** More keys of the config file (versions, notices…). */
  file?: Record<string, unknown>;
  env?: Record<string, string>;
  /** Change a version's upstream document before the gateway reads it (add a parameter, say). */
  editDocument?: (version: string, document: Record<string, unknown>) => void;
  /** The gateway's clock (in-process only, `startTestGateway`). */
  clock?: { now(): number };
}

export function writeGatewayFiles(options: GatewayOptions): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-gateway-'));
  for (const v of ['v1', 'v2']) {
    const document = upstreamDocument(v);
    options.editDocument?.(v, document);
    writeFileSync(join(dir, `openapi-${v}.json`), JSON.stringify(document));
  }
  const config = {
    gateway: {
      prefix: '/api',
      vendor: 'acme',
      versions: {
        v1: { upstream: options.upstream, openapi: './openapi-v1.json' },
        v2: { upstream: options.upstream, openapi: './openapi-v2.json' },
      },
      identify: { apiKeys: true },
      ...options.gateway,
    },
    ...options.file,
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return { dir, env: { ...gatewayEnv(dir), LOG_LEVEL: 'silent', ...options.env } };
}

/** A test gateway's environment: its database and its `config.json` in `dir`, the test admin key. */
export function gatewayEnv(dir: string): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}`,
    VERSIONARY_ADMIN_KEY: gatewayAdminKey,
    VERSIONARY_SHUTDOWN_DELAY_MS: '0',
    VERSIONARY_CONFIG: join(dir, 'config.json'),
  };
}

/**
 * Start a gateway in front of `upstream` for v1 and v2, in this process, with the given extra
 * config and env.
 */
export async function startTestGateway(options: GatewayOptions): Promise<TestGateway> {
  const { dir, env } = writeGatewayFiles(options);
  const readFile = (path: string) => readFileSync(path, 'utf8');
  let exitCode: number | undefined;
  const running = await startService({
    env: { ...env, PORT: '0' },
    readFile,
    exit: (code) => {
      exitCode = code;
    },
    compose: (c) => composeGateway({ config: c, readFile }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await running.ready;
  if (exitCode !== undefined) throw new Error(`the gateway did not start (exit ${exitCode}); its reason is on stderr`);
  return {
    base: `http://127.0.0.1:${running.address.port}`,
    dir,
    stop: async () => {
      const code = await running.shutdown('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Run `versionary gateway` (the built CLI, `bin/versionary.js`) as its own process, as users run it. */
export function spawnGateway(options: GatewayOptions): Promise<SpawnedGateway> {
  return onFreePort((port) => spawnGatewayOnce(writeGatewayFiles(options), port));
}

/** Run `versionary gateway` as its own process on files already written (a config of its own). */
export function spawnGatewayIn(files: { dir: string; env: Record<string, string> }): Promise<SpawnedGateway> {
  return onFreePort((port) => spawnGatewayOnce(files, port));
}

type SpawnedGateway = TestGateway & {
  pid: number;
  output(): string;
  /** Send `signal` and wait for the exit, keeping the gateway's files (to start it again on them). */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

async function spawnGatewayOnce(
  { dir, env }: { dir: string; env: Record<string, string> },
  port: number,
): Promise<SpawnedGateway> {
  const child = spawn(process.execPath, [bin, 'gateway'], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += String(d);
  });
  child.stderr!.on('data', (d) => {
    output += String(d);
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (
    Date.now() < deadline &&
    child.exitCode === null &&
    !(await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 100));
  if (child.exitCode !== null || Date.now() >= deadline) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`versionary gateway did not become ready:\n${output.slice(-2000)}`);
  }
  return {
    base,
    dir,
    pid: child.pid!,
    output: () => output,
    kill: async (signal) => {
      const exited = once(child, 'exit');
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      else return { code: child.exitCode, signal: child.signalCode };
      const [code, by] = (await exited) as [number | null, NodeJS.Signals | null];
      return { code, signal: by };
    },
    stop: async () => {
      // A gateway that exited already (or was killed) has no exit left to wait for.
      const exited = once(child, 'exit');
      const code =
        child.exitCode === null && child.signalCode === null
          ? (child.kill('SIGTERM'), ((await exited) as [number | null])[0])
          : child.exitCode;
      rmSync(dir, { recursive: true, force: true });
      return code as number;
    },
  };
}

/**
 * A test gateway in front of the Python upstream for the enclosing `describe`: both started in
 * its `before` and stopped in its `after`. Read `base` from within a test.
 *
 * @example
 * ```ts
 * const gateway = gatewayInFrontOfPython({ file: { versions: { v1: { deprecatedAt } } } });
 * it('answers', async () => assert.equal((await fetch(`${gateway.base}/api/v2/users/1`)).status, 401));
 * ```
 */
export function gatewayInFrontOfPython(options: Omit<GatewayOptions, 'upstream'> = {}): { readonly base: string } {
  let python: PythonUpstream | undefined;
  let gateway: TestGateway | undefined;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({ ...options, upstream: python.url });
  });
  after(async () => {
    await gateway?.stop();
    await python?.stop();
  });
  return {
    get base() {
      if (!gateway) throw new Error('the gateway is started in the suite’s before hook');
      return gateway.base;
    },
  };
}
