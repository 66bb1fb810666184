import { createRequire } from 'node:module';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { runStorageContract } from './contract.ts';

runStorageContract('sqlite (libsql)', () => openSqliteStorage({ path: ':memory:' }));

// Node's own SQLite (22.13+, 24) passes the same contract, so it could replace libsql where offered.
const hasNodeSqlite = (() => {
  try {
    createRequire(import.meta.url)('node:sqlite');
    return true;
  } catch {
    return false;
  }
})();
if (hasNodeSqlite)
  runStorageContract('sqlite (node:sqlite)', () => openSqliteStorage({ path: ':memory:', driver: 'node:sqlite' }));
