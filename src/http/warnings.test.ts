import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DeprecationWarningCode, deprecationWarnings } from './warnings.ts';

test('docs/errors.md lists every deprecation warning code, and nothing else', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Deprecation warnings'));
  const rows = [...section.matchAll(/^\| `(VERSIONARY_DEP\d{3})` \|/gm)].map((m) => m[1]);
  assert.deepEqual(rows.sort(), Object.values(DeprecationWarningCode).sort());
  for (const code of Object.values(DeprecationWarningCode))
    assert.match(deprecationWarnings[code], /is deprecated: write /, code);
});
