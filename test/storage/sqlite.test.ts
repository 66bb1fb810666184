import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';
import { runStorageContract } from './contract.ts';

runStorageContract('sqlite (libsql)', () => openSqliteStorage({ path: ':memory:' }));
