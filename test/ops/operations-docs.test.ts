import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { adminHeaders, createTestApp } from '../support/test-app.ts';

const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');

test('docs/operations.md lists every metric the service exports', async () => {
  const t = await createTestApp();
  const text = (await t.app.inject({ url: '/metrics', headers: adminHeaders })).body;
  await t.close();
  const names = new Set([...text.matchAll(/^# TYPE (versionary_[a-z_]+) /gm)].map((m) => m[1]!));
  assert.ok(names.size >= 9, `${names.size} metrics`);
  for (const name of names) assert.match(doc, new RegExp(`^\\| \`${name}\` \\|`, 'm'), name);
});

test('docs/operations.md documents every operations variable', () => {
  const source = readFileSync(new URL('../../src/kernel/ops/ops-config.ts', import.meta.url), 'utf8');
  const variables = new Set([...source.matchAll(/VERSIONARY_[A-Z_]+[A-Z]/g)].map((m) => m[0]));
  assert.ok(variables.size >= 8);
  for (const name of variables) assert.match(doc, new RegExp(`^\\| \`${name}\` \\|`, 'm'), name);
});
