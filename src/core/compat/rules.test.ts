// The registry and docs/compatibility.md must list the same rule ids, and every registered rule
// must be reachable: each is asserted by at least one classifier test.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { it } from 'node:test';
import { lintRules } from '../lint/lint-openapi.ts';
import { compatRules } from './rules.ts';

const root = new URL('../../../', import.meta.url);
const docs = readFileSync(new URL('docs/compatibility.md', root), 'utf8');

it('docs/compatibility.md documents every compat rule with its level', () => {
  for (const [id, rule] of Object.entries(compatRules)) {
    assert.match(
      docs,
      new RegExp(`\\| \`${id}\` \\| ${rule.level} \\|`),
      `${id} is missing or has the wrong level in the docs`,
    );
  }
  const documented = [...docs.matchAll(/^\| `([a-z-]+)` \| (breaking|risk|compatible) \|/gm)].map((m) => m[1]);
  assert.deepEqual(
    documented.filter((id) => !Object.hasOwn(compatRules, id as string)),
    [],
    'docs list rules the registry does not know',
  );
});

it('docs/compatibility.md documents every lint rule', () => {
  for (const id of Object.keys(lintRules)) assert.ok(docs.includes(`\`${id}\``), `${id} is not documented`);
});

it('every compat rule is exercised by a test', () => {
  const dir = new URL('./', import.meta.url);
  const tests = readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts') && f !== 'rules.test.ts')
    .map((f) => readFileSync(new URL(f, dir), 'utf8'))
    .join('\n');
  const missing = Object.keys(compatRules).filter((id) => !tests.includes(`'${id}`));
  assert.deepEqual(missing, []);
});
