export type SqliteDriverName = 'libsql' | 'better-sqlite3' | 'node:sqlite';

// Apart from the drivers themselves, so that choosing one (and saying which package it needs) loads none.
/**
 * The driver used when none is named: Node's own `node:sqlite` where it loads without an
 * ExperimentalWarning (Node 24.15+, 25.7+ and 26+, checked on each line's releases), libsql
 * elsewhere. There `node:sqlite` reads and inserts faster than libsql through the storage port
 * and needs no package (`bench/README.md`); Node 20 has no `node:sqlite`, and on Node 22 and
 * earlier 24/25 releases it prints the warning at start.
 */
export function defaultSqliteDriver(version: string = process.versions.node): SqliteDriverName {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const quiet = major >= 26 || (major === 25 && minor >= 7) || (major === 24 && minor >= 15);
  return quiet ? 'node:sqlite' : 'libsql';
}
