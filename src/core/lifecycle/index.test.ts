import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as lifecycle from './index.ts';

const here = new URL('.', import.meta.url);
const sources = readdirSync(here).filter(
  (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts' && f !== 'test-support.ts',
);

describe('lifecycle index', () => {
  // The index carries what other folders import; a module's export used only by its siblings stays
  // off it, and knip (npm run lint) reports any export nothing imports.
  it('re-exports each name as its module defines it', async () => {
    const modules = await Promise.all(
      sources.map(async (file) => (await import(new URL(file, here).href)) as Record<string, unknown>),
    );
    for (const [name, value] of Object.entries(lifecycle)) {
      assert.ok(
        modules.some((module) => module[name] === value),
        `index exports ${name}, which no module of the folder defines`,
      );
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
