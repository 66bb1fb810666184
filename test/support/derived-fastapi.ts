import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { gatewayEnv, spawnGatewayIn, startPythonUpstream, type PythonUpstream } from './gateway.ts';

/** The folder of the FastAPI-named upstream (`upstream.py`), its v2 document and v2's change file. */
export const derivedFastapiFixture = new URL('../fixtures/derived-fastapi/', import.meta.url).pathname;

/** The fixture's document and change file in a folder of their own, with a config serving v1 derived from v2 at `upstream`. */
export function writeDerivedFastapiFiles(upstream: string): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-derived-fastapi-'));
  for (const file of ['openapi-v2.json', 'changes-v2.json'])
    copyFileSync(join(derivedFastapiFixture, file), join(dir, file));
  const config = {
    gateway: {
      prefix: '/api',
      vendor: 'acme',
      versions: {
        v2: { upstream, openapi: './openapi-v2.json' },
        v1: { derivedFrom: 'v2', changes: './changes-v2.json' },
      },
    },
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return { dir, env: gatewayEnv(dir) };
}

/**
 * The FastAPI-named upstream and `versionary gateway` (as a process) serving v1 derived from its v2,
 * for the enclosing `describe`: both started in its `before`, stopped in its `after`. Read them from
 * within a test.
 */
export function derivedFastapiGateway(): {
  gateway: { readonly base: string; output(): string };
  upstream: { readonly url: string };
} {
  let upstream: PythonUpstream | undefined;
  let gateway: Awaited<ReturnType<typeof spawnGatewayIn>> | undefined;
  before(async () => {
    upstream = await startPythonUpstream({ script: join(derivedFastapiFixture, 'upstream.py') });
    gateway = await spawnGatewayIn(writeDerivedFastapiFiles(upstream.url));
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
    gateway: {
      get base() {
        return started(gateway).base;
      },
      output: () => started(gateway).output(),
    },
    upstream: {
      get url() {
        return started(upstream).url;
      },
    },
  };
}
