import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultSqliteDriver } from './sqlite-driver.ts';

test('the default driver is node:sqlite from Node 24 on and libsql before it', () => {
  assert.equal(defaultSqliteDriver('20.19.0'), 'libsql');
  assert.equal(defaultSqliteDriver('22.23.3'), 'libsql');
  assert.equal(defaultSqliteDriver('24.0.0'), 'node:sqlite');
  assert.equal(defaultSqliteDriver('26.1.0'), 'node:sqlite');
});
