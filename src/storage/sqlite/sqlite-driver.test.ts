import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultSqliteDriver } from './sqlite-driver.ts';

test('the default driver is node:sqlite where it loads without an ExperimentalWarning, libsql elsewhere', () => {
  // Checked on the release binaries: 24.14.1 and 25.6.0 warn, 24.15.0 and 25.7.0 do not.
  for (const version of ['20.19.0', '22.23.3', '24.0.0', '24.14.1', '25.0.0', '25.6.0'])
    assert.equal(defaultSqliteDriver(version), 'libsql', version);
  for (const version of ['24.15.0', '24.21.0', '25.7.0', '26.0.0', '27.1.0'])
    assert.equal(defaultSqliteDriver(version), 'node:sqlite', version);
});
