import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VersionaryError } from '../../core/errors/index.ts';
import { guardStores, isTransientStorageError } from './transient-errors.ts';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

test('connection, timeout, overload and failover errors may pass; query bugs do not', () => {
  for (const error of [
    withCode('ECONNREFUSED'),
    withCode('ECONNRESET'),
    withCode('57014'),
    withCode('57P01'),
    withCode('08006'),
    withCode('53300'),
    withCode('40001'),
    withCode('25006'),
    withCode('42P01'),
    withCode('SQLITE_BUSY'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Query read timeout'),
  ]) {
    assert.equal(isTransientStorageError(error), true, `${(error as { code?: string }).code ?? error.message}`);
  }
  for (const error of [
    withCode('42601'),
    withCode('23505'),
    withCode('22P02'),
    new TypeError('x is undefined'),
    'a string',
    undefined,
  ]) {
    assert.equal(isTransientStorageError(error), false, String(error));
  }
  assert.equal(isTransientStorageError(new Error('wrapped', { cause: withCode('ECONNREFUSED') })), true);
});

test('guarded stores turn transient failures into STORAGE_UNAVAILABLE with Retry-After, and leave the rest alone', async () => {
  const storage = guardStores({
    users: {
      find: async () => {
        throw withCode('ECONNREFUSED');
      },
      create: async () => {
        throw withCode('42601', 'syntax error');
      },
      list: async () => ['ok'],
    },
  });
  await assert.rejects(
    storage.users.find(),
    (error: VersionaryError) =>
      error.code === 'STORAGE_UNAVAILABLE' &&
      error.headers['retry-after'] === '2' &&
      !error.detail.includes('ECONNREFUSED'),
  );
  await assert.rejects(storage.users.create(), /syntax error/);
  assert.deepEqual(await storage.users.list(), ['ok']);
});

test('node:sqlite errors are read by their number: busy, locked, I/O and full pass, a constraint does not', () => {
  const sqlite = (errcode: number) => Object.assign(new Error('sqlite'), { code: 'ERR_SQLITE_ERROR', errcode });
  // 5 BUSY, 6 LOCKED, 10 IOERR, 13 FULL, 517 BUSY_SNAPSHOT (extended), 2067 CONSTRAINT_UNIQUE, 1 ERROR.
  for (const code of [5, 6, 10, 13, 517]) assert.equal(isTransientStorageError(sqlite(code)), true, String(code));
  for (const code of [2067, 1, 19]) assert.equal(isTransientStorageError(sqlite(code)), false, String(code));
});
