import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PolicyRule } from './policy-report.ts';

const doc = readFileSync(new URL('../../../docs/lifecycle.md', import.meta.url), 'utf8');

describe('docs/lifecycle.md', () => {
  it('documents every policy rule id in the rules table', () => {
    for (const rule of Object.values(PolicyRule)) assert.match(doc, new RegExp(`^\\| \`${rule}\` \\|`, 'm'), rule);
  });
});
