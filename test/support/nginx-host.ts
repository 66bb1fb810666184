import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeGatewayFiles, type GatewayOptions } from './gateway.ts';
import { requireNginx } from './nginx.ts';
import { freePort } from './service-process.ts';

const bin = new URL('../../bin/versionary.js', import.meta.url).pathname;

/** One nginx host as docs/gateway.md runs several: nginx, and `versionary gateway --control-plane` beside it. */
export interface NginxHost {
  /** nginx's origin. */
  base: string;
  /** The control plane's origin. */
  control: string;
  /** The rendered files' directory. */
  out: string;
  /** nginx's error log so far. */
  log(): string;
  /** What the control plane wrote so far. */
  controlOutput(): string;
  stop(): Promise<void>;
}

/**
 * Start a control plane as its own process (the built CLI), which renders nginx's files at start,
 * then nginx on them; `env` names the database and Redis the hosts share.
 */
export async function startNginxHost(options: GatewayOptions): Promise<NginxHost> {
  requireNginx();
  const [listen, controlPort] = [await freePort(), await freePort()];
  const control = `http://127.0.0.1:${controlPort}`;
  const { dir, env } = writeGatewayFiles({
    ...options,
    gateway: { ...options.gateway, nginx: { out: './nginx', listen, control } },
  });
  // nginx's workers run as another user when the tests run as root: they must reach the files.
  chmodSync(dir, 0o755);
  const out = join(dir, 'nginx');
  const plane = spawn(process.execPath, [bin, 'gateway', '--control-plane'], {
    env: { ...process.env, ...env, PORT: String(controlPort), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let planeOutput = '';
  plane.stdout!.on('data', (d) => (planeOutput += String(d)));
  plane.stderr!.on('data', (d) => (planeOutput += String(d)));
  let nginx: ChildProcess | undefined;
  let nginxOutput = '';
  const stop = async () => {
    for (const child of [nginx, plane]) {
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${control}/readyz`, plane, () => planeOutput);
    nginx = spawn('/usr/sbin/nginx', ['-p', out, '-c', 'nginx.conf', '-g', 'daemon off;'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    nginx.stdout!.on('data', (d) => (nginxOutput += String(d)));
    nginx.stderr!.on('data', (d) => (nginxOutput += String(d)));
    await waitFor(`http://127.0.0.1:${listen}/livez`, nginx, () => nginxOutput);
  } catch (error) {
    await stop();
    throw error;
  }
  const errorLog = join(out, 'error.log');
  return {
    base: `http://127.0.0.1:${listen}`,
    control,
    out,
    log: () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '') + nginxOutput,
    controlOutput: () => planeOutput,
    stop,
  };
}

async function waitFor(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode}):\n${output()}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer in 30 s:\n${output().slice(-3000)}`);
}
