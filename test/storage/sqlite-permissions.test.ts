import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite-storage.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;
const write = async (storage: Awaited<ReturnType<typeof openSqliteStorage>>) =>
  (await storage.resources()).users.create({
    values: { name: 'p', email: 'p@example.com', nickname: null, status: 'active' },
    at: '2026-01-01T00:00:00.000Z',
  });

describe('SQLite file permissions', () => {
  it('create the data directory 0700 and the database, WAL and SHM files 0600', async () => {
    const root = mkdtempSync(join(tmpdir(), 'versionary-perm-'));
    const previous = process.umask(0o022); // the usual umask, which would give 0755 and 0644
    try {
      const path = join(root, 'data', 'nested', 'versionary.db');
      const storage = await openSqliteStorage({ path });
      await write(storage);
      for (const dir of [join(root, 'data'), join(root, 'data', 'nested')]) assert.equal(modeOf(dir), 0o700, dir);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(modeOf(file), 0o600, file);
      assert.equal(process.umask(0o022), 0o022, 'the process umask is restored');
      await storage.close();
    } finally {
      process.umask(previous);
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('tighten the files of an existing database that were world-readable', async () => {
    const root = mkdtempSync(join(tmpdir(), 'versionary-perm-'));
    try {
      const path = join(root, 'old.db');
      writeFileSync(path, '');
      chmodSync(path, 0o644);
      const storage = await openSqliteStorage({ path });
      await write(storage);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(modeOf(file), 0o600, file);
      await storage.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
