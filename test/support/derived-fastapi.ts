import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatewayEnv } from './gateway.ts';

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
