// The bench servers load the built modules by path (`built<typeof import('…/src/X.ts')>('X')`): the
// type names one file, the string another, and nothing else checks that they agree. A module that
// moved left `npm run bench` failing at start while every other check passed.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(import.meta.dirname, '../..');

function benchFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'results' ? [] : benchFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the bench loads the modules its types name', () => {
  it('every built() path is the source file of its type, and that file exists', () => {
    const calls = benchFiles(join(root, 'bench')).flatMap((file) =>
      [
        ...readFileSync(file, 'utf8').matchAll(
          /built<typeof import\('(?:\.\.\/)+src\/([^']+)\.ts'\)>\(\s*'([^']+)'\s*\)/g,
        ),
      ].map(([, typed, loaded]) => ({ file, typed: typed!, loaded: loaded! })),
    );
    assert.ok(calls.length >= 5, `found ${calls.length} built() calls`);
    for (const { file, typed, loaded } of calls) {
      assert.equal(loaded, typed, `${file}: built('${loaded}') but its type is src/${typed}.ts`);
      assert.ok(existsSync(join(root, 'src', `${typed}.ts`)), `${file}: src/${typed}.ts does not exist`);
    }
  });
});
