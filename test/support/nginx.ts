import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { startService } from '../../src/compose/start-service.ts';
import { composeGateway } from '../../src/gateway/composition.ts';
import { nginxControlPlane, nginxTargetOf } from '../../src/gateway/nginx/control-plane.ts';
import type { TablePusher } from '../../src/gateway/nginx/push.ts';
import { debianLuaModules } from '../../src/gateway/nginx/render.ts';
import type { UsageEntry } from '../../src/gateway/nginx/usage-batch.ts';
import { writeGatewayFiles, type GatewayOptions } from './gateway.ts';
import { freePort } from './service-process.ts';

const nginxBin = '/usr/sbin/nginx';

/** Debian's lua-cjson, which the Lua data plane decodes the table with. */
const cjsonModule = '/usr/lib/x86_64-linux-gnu/lua/5.1/cjson.so';

/**
 * nginx with lua-nginx-module and lua-cjson, or a clear failure naming how to get them (`.ci/run`
 * installs them): the nginx tests never skip silently.
 */
export function requireNginx(): void {
  const missing = [nginxBin, ...debianLuaModules, cjsonModule].filter((path) => !existsSync(path));
  if (missing.length > 0)
    throw new Error(
      `the nginx tests need Debian's nginx with lua-nginx-module and lua-cjson (missing ${missing.join(', ')}): ` +
        'apt-get install -y --no-install-recommends nginx libnginx-mod-http-lua lua-resty-core lua-cjson',
    );
  const version = spawnSync(nginxBin, ['-v'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`${nginxBin} -v failed: ${version.stderr}`);
}

/** nginx in front of the upstream, with the control plane beside it (in this process, through `startService`). */
export interface DataPlane {
  /** nginx's origin. */
  base: string;
  /** The control plane's origin. */
  control: string;
  /** The rendered files' directory. */
  out: string;
  /** The counters of every usage batch the control plane recorded so far (nginx sends them each second). */
  usage(): UsageEntry[];
  /** nginx's error log so far. */
  log(): string;
  /** Push the control plane's table (and clock) to nginx now; resolves once nginx has it. */
  sync(): Promise<void>;
  /** `nginx -s reload` (resolves once nginx answers again) or `-s quit` (resolves once it exited). */
  signal(name: 'reload' | 'quit'): Promise<void>;
  /** Stop the control plane alone: nginx goes on without it. */
  stopControl(): Promise<void>;
  stop(): Promise<void>;
}

/** Start the control plane (`versionary gateway --control-plane`, which renders the files) and nginx on them. */
export async function startDataPlane(
  options: GatewayOptions & {
    /** Seconds between nginx's usage flushes (1 as rendered): longer, only a worker's exit sends usage. */
    usageIntervalSeconds?: number;
  },
): Promise<DataPlane> {
  requireNginx();
  const [listen, controlPort] = [await freePort(), await freePort()];
  const control = `http://127.0.0.1:${controlPort}`;
  const { dir, env } = writeGatewayFiles({
    ...options,
    gateway: {
      ...options.gateway,
      nginx: { out: './nginx', listen, control },
    },
  });
  const out = join(dir, 'nginx');
  // nginx's workers run as another user when the tests run as root: they must reach the cache and temp paths.
  chmodSync(dir, 0o755);
  const readFile = (path: string) => readFileSync(path, 'utf8');
  let rendered: () => void = () => {};
  let pusher: TablePusher | undefined;
  let controlStopped = false;
  const entries: UsageEntry[] = [];
  const written = new Promise<void>((resolve) => (rendered = resolve));
  const running = await startService({
    env: { ...env, PORT: String(controlPort), LOG_LEVEL: 'silent' },
    readFile,
    exit: (code) => {
      throw new Error(`the control plane stopped (exit ${code})`);
    },
    ...(options.clock ? { clock: options.clock } : {}),
    compose: (config) => {
      const rendering = nginxTargetOf(config)!;
      return composeGateway({
        config,
        readFile,
        controlPlane: nginxControlPlane({
          config,
          target: rendering.target,
          onRendered: () => rendered(),
          onPusher: (p) => (pusher = p),
          onUsage: (batch) => entries.push(...batch.entries),
        }),
      });
    },
  });
  await running.ready;
  await written;
  if (options.usageIntervalSeconds !== undefined) {
    const conf = join(out, 'versionary-http.conf');
    const text = readFileSync(conf, 'utf8');
    writeFileSync(conf, text.replace('usage_interval = 1,', `usage_interval = ${options.usageIntervalSeconds},`));
  }
  const child = spawn(nginxBin, ['-p', out, '-c', 'nginx.conf', '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  const base = `http://127.0.0.1:${listen}`;
  await waitUntilAnswering(base, child, () => output);
  return {
    base,
    control,
    out,
    usage: () => [...entries],
    signal: async (name) => {
      const exited = name === 'quit' && child.exitCode === null ? once(child, 'exit') : undefined;
      const sent = spawnSync(nginxBin, ['-p', out, '-c', 'nginx.conf', '-s', name], { encoding: 'utf8' });
      if (sent.status !== 0) throw new Error(`nginx -s ${name} failed: ${sent.stderr}`);
      if (exited) await exited;
      else await waitUntilAnswering(base, child, () => output);
    },
    log: () => readFileSafe(join(out, 'error.log')),
    sync: () => pusher!.sync(),
    stopControl: async () => {
      controlStopped = true;
      await running.shutdown('SIGTERM');
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      if (!controlStopped) await running.shutdown('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readFileSafe(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

async function waitUntilAnswering(base: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${output()}`);
    const up = await fetch(`${base}/livez`).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not answer in 15 s:\n${output()}`);
}

/** A response to a raw request target, sent as it is (fetch would resolve `..` and `\`). */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Send `target` unchanged to `base`. */
export function rawRequest(base: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: target, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
