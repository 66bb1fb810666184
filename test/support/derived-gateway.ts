import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { gatewayEnv, spawnGatewayIn, startPythonUpstream, type PythonUpstream } from './gateway.ts';

const bin = new URL('../../bin/versionary.js', import.meta.url).pathname;

/** What a derived gateway serves: a fixture's files, the config's `versions` (`UPSTREAM` stands for the upstream's URL). */
interface DerivedSetup {
  fixture: string;
  /** Copied from the fixture as they are. */
  files: string[];
  /** Written as JSON instead of copied (a change file a test breaks on purpose), by file name. */
  written?: Record<string, unknown>;
  versions: Record<string, Record<string, string>>;
}

/** v2 with an upstream and its document, v1 derived from it by `changes`: what most derived tests serve. */
export function v1FromV2(changes = './changes-v2.json'): DerivedSetup['versions'] {
  return { v2: { upstream: 'UPSTREAM', openapi: './openapi-v2.json' }, v1: { derivedFrom: 'v2', changes } };
}

/** The setup's files and config in a folder of their own, the versions' `UPSTREAM` being `upstream`. */
function writeDerived(setup: DerivedSetup, upstream: string): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-derived-'));
  for (const file of setup.files) copyFileSync(join(setup.fixture, file), join(dir, file));
  for (const [file, data] of Object.entries(setup.written ?? {})) writeFileSync(join(dir, file), JSON.stringify(data));
  const versions = Object.fromEntries(
    Object.entries(setup.versions).map(([name, v]) => [
      name,
      Object.fromEntries(Object.entries(v).map(([k, value]) => [k, value === 'UPSTREAM' ? upstream : value])),
    ]),
  );
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ gateway: { prefix: '/api', vendor: 'acme', versions } }));
  return { dir, env: gatewayEnv(dir) };
}

/** `versionary gateway` started (as a process) on a setup that must stop it: its exit status and all it printed. */
export function derivedStartFailure(setup: DerivedSetup): { status: number | null; output: string } {
  const { dir, env } = writeDerived(setup, 'http://127.0.0.1:9');
  try {
    const run = spawnSync(process.execPath, [bin, 'gateway'], {
      env: { ...process.env, ...env, PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { status: run.status, output: run.stderr + run.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A fixture's Python upstream (`upstream.py`) and `versionary gateway` (as a process) in front of
 * it, for the enclosing `describe`: the setup's files in a folder of their own with its config.
 * Both are started in its `before` and stopped in its `after`; read them from within a test.
 */
export function derivedGateway(setup: DerivedSetup): {
  readonly base: string;
  readonly upstream: string;
  output(): string;
  received(): Promise<Array<Record<string, unknown>>>;
} {
  let upstream: PythonUpstream | undefined;
  let gateway: Awaited<ReturnType<typeof spawnGatewayIn>> | undefined;
  before(async () => {
    upstream = await startPythonUpstream({ script: join(setup.fixture, 'upstream.py') });
    gateway = await spawnGatewayIn(writeDerived(setup, upstream.url));
  });
  after(async () => {
    await gateway?.stop();
    await upstream?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the derived gateway is started in the suite’s before hook');
    return value;
  };
  return {
    get base() {
      return started(gateway).base;
    },
    get upstream() {
      return started(upstream).url;
    },
    output: () => started(gateway).output(),
    received: async () =>
      (await (await fetch(`${started(upstream).url}/_received`)).json()) as Array<Record<string, unknown>>,
  };
}
