import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as lifecycle from './index.ts';

const here = new URL('.', import.meta.url);
const sources = readdirSync(here).filter(
  (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts' && f !== 'test-support.ts',
);

describe('lifecycle index', () => {
  it('re-exports every runtime export of every module', async () => {
    for (const file of sources) {
      const module = (await import(new URL(file, here).href)) as Record<string, unknown>;
      for (const name of Object.keys(module)) {
        assert.equal(
          (lifecycle as Record<string, unknown>)[name],
          module[name],
          `${file} exports ${name} but index does not`,
        );
      }
    }
  });

  // Examples belong to public exports only, and test/package/api-report.test.ts checks those.
  it('documents every exported declaration with JSDoc', () => {
    for (const file of sources) {
      const text = readFileSync(new URL(file, here), 'utf8');
      for (const match of text.matchAll(/^export (?:function|const|interface|type) (\w+)/gm)) {
        const before = text.slice(0, match.index).trimEnd();
        assert.ok(before.endsWith('*/'), `${file}: ${match[1]} has no JSDoc`);
      }
    }
  });
});
