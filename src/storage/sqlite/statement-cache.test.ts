import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqliteDriver } from './sqlite-driver.ts';
import { withStatementCache } from './statement-cache.ts';

test('rows read in array mode come back as objects, and follow a column added by another connection', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'x.db');
  const writer = openSqliteDriver({ driver: 'libsql', path });
  writer.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b');");
  const db = withStatementCache(openSqliteDriver({ driver: 'libsql', path }));
  const all = (sql: string) => db.prepare(sql).all([]) as unknown[];
  assert.deepEqual(all('SELECT * FROM t ORDER BY id'), [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ]);
  writer.exec("ALTER TABLE t ADD COLUMN note TEXT; UPDATE t SET note = 'n' || id;");
  // The cached statement is re-prepared by SQLite and now has three columns.
  assert.deepEqual(all('SELECT * FROM t ORDER BY id'), [
    { id: 1, name: 'a', note: 'n1' },
    { id: 2, name: 'b', note: 'n2' },
  ]);
  db.close();
  writer.close();
});
