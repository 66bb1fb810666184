import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loopPartNames } from '../../src/loop/host/loop-state.ts';

// The order the parts are registered in is the order their imports may follow: eslint.config.js
// refuses an import of a later part (`loopParts`), so the two lists must be one.
test("the lint rule's order of the loop's parts is the order they are registered in", () => {
  const config = readFileSync(new URL('../../eslint.config.js', import.meta.url), 'utf8');
  const listed = /const loopParts = \[([^\]]*)\]/.exec(config)?.[1];
  assert.ok(listed, 'eslint.config.js declares loopParts');
  const parts = [...listed.matchAll(/'([a-z]+)'/g)].map((m) => `versionary-loop-${m[1]}`);
  assert.deepEqual(parts, [...loopPartNames]);
});
