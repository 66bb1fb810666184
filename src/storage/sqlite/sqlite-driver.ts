import { createRequire } from 'node:module';
import Database from 'libsql';
import type { PreparingDatabase } from './statement-cache.ts';
import type { SqliteDriverName } from './default-driver.ts';

export { defaultSqliteDriver, type SqliteDriverName } from './default-driver.ts';

/** An open database in better-sqlite3's shape (what Kysely's `SqliteDialect` drives). */
export interface OpenedSqlite extends PreparingDatabase {
  exec(sql: string): unknown;
}

const require = createRequire(import.meta.url);

/**
 * Open a SQLite database on the named driver. libsql is the default and a dependency;
 * `better-sqlite3` must be installed by the user (it compiles where no prebuilt binary matches);
 * `node:sqlite` is Node's own (22.13+ and 24), adapted here to better-sqlite3's statement shape.
 */
export function openSqliteDriver(options: {
  driver: SqliteDriverName;
  path: string;
  /** Where better-sqlite3 is, if not in node_modules. */ module?: string;
}): OpenedSqlite {
  if (options.driver === 'libsql') return new Database(options.path) as unknown as OpenedSqlite;
  if (options.driver === 'better-sqlite3') {
    const BetterSqlite = require(options.module ?? 'better-sqlite3') as new (path: string) => OpenedSqlite;
    return new BetterSqlite(options.path);
  }
  return openNodeSqlite(options.path);
}

interface NodeStatement {
  get(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
  columns(): unknown[];
}

function openNodeSqlite(path: string): OpenedSqlite {
  // Loaded on demand: Node 20 has no node:sqlite, and the default driver must not need it.
  const { DatabaseSync } = require('node:sqlite') as {
    DatabaseSync: new (path: string) => { prepare(sql: string): NodeStatement; exec(sql: string): void; close(): void };
  };
  const database = new DatabaseSync(path);
  return {
    exec: (sql) => database.exec(sql),
    close: () => database.close(),
    prepare: (sql) => {
      const statement = database.prepare(sql);
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...parameters),
        get: (parameters: ReadonlyArray<unknown>) => statement.get(...parameters),
        run: (parameters) => {
          const { changes, lastInsertRowid } = statement.run(...parameters);
          return { changes, lastInsertRowid };
        },
        iterate: (parameters) => statement.iterate(...parameters),
      };
    },
  };
}
