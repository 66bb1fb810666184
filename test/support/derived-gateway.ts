import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { gatewayEnv, spawnGatewayIn, startPythonUpstream, type PythonUpstream } from './gateway.ts';

/**
 * A fixture's Python upstream (`upstream.py`) and `versionary gateway` (as a process) in front of
 * it, for the enclosing `describe`: the fixture's `files` copied to a folder of their own, with a
 * config whose `versions` the caller gives (`UPSTREAM` standing for the upstream's URL). Both are
 * started in its `before` and stopped in its `after`; read them from within a test.
 */
export function derivedGateway(options: {
  fixture: string;
  files: string[];
  versions: Record<string, Record<string, string>>;
}): { readonly base: string; readonly upstream: string; received(): Promise<Array<Record<string, unknown>>> } {
  let upstream: PythonUpstream | undefined;
  let gateway: Awaited<ReturnType<typeof spawnGatewayIn>> | undefined;
  before(async () => {
    upstream = await startPythonUpstream({ script: join(options.fixture, 'upstream.py') });
    const dir = mkdtempSync(join(tmpdir(), 'versionary-derived-'));
    for (const file of options.files) copyFileSync(join(options.fixture, file), join(dir, file));
    const url = upstream.url;
    const versions = Object.fromEntries(
      Object.entries(options.versions).map(([name, v]) => [
        name,
        Object.fromEntries(Object.entries(v).map(([k, value]) => [k, value === 'UPSTREAM' ? url : value])),
      ]),
    );
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ gateway: { prefix: '/api', vendor: 'acme', versions } }));
    gateway = await spawnGatewayIn({ dir, env: gatewayEnv(dir) });
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
    received: async () =>
      (await (await fetch(`${started(upstream).url}/_received`)).json()) as Array<Record<string, unknown>>,
  };
}
