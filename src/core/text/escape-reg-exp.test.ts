import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeRegExp } from './human-text.ts';

test('escapes every character a regular expression gives a meaning to', () => {
  const special = '.*+?^${}()|[]\\';
  assert.ok(new RegExp(`^${escapeRegExp(special)}$`).test(special));
  assert.equal(new RegExp(`^${escapeRegExp('/api.v')}/`).test('/apixv/'), false);
  assert.equal(escapeRegExp('/api'), '/api');
});
