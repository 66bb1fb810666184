import { Kysely, PostgresDialect, sql } from 'kysely';
import type { DatabaseIntrospector, PostgresDialectConfig, TableMetadata } from 'kysely';
import pg from 'pg';
import type { Storage } from '../../kernel/ports/index.ts';
import { openLoopStorage } from '../kysely/loop-stores.ts';
import type { Tables } from '../kysely/tables.ts';

export interface PostgresStorageOptions {
  /** `postgres://user@host:port/database`. */
  url: string;
  /** Schema to use (created if missing); `public` by default. Tests use one per run. */
  schema?: string;
  /** Pool size; 10 by default. */
  max?: number;
  /** How long a request waits for a pooled connection before failing with 503; 2 s by default. */
  connectTimeoutMs?: number;
  /** Server-side `statement_timeout`, and the client's own read timeout a little above it; 5 s by default. */
  statementTimeoutMs?: number;
  /** Told about errors on idle connections (a restart, `pg_terminate_backend`); they never kill the process. */
  onError?: (error: Error) => void;
}

/**
 * Connect to PostgreSQL, migrate under an advisory lock, and return the same storage ports as
 * SQLite: the SQL is the same Kysely code, so one contract suite checks both.
 *
 * Every failure is bounded: a connection waits at most `connectTimeoutMs`, a statement runs at most
 * `statementTimeoutMs`, and a dropped connection is reported to `onError` and replaced on next use.
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage & { db: Kysely<Tables> }> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  const statementTimeout = options.statementTimeoutMs ?? 5000;
  const max = options.max ?? 10;
  const pool = new pg.Pool({
    connectionString: options.url,
    max,
    options: `-c search_path=${schema} -c statement_timeout=${statementTimeout} -c idle_in_transaction_session_timeout=${statementTimeout * 2}`,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    // The server's statement_timeout cannot fire when the server or the network is frozen.
    query_timeout: statementTimeout + 1000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  // Without a listener, an idle connection's error (PostgreSQL restarted, the backend terminated)
  // is an unhandled 'error' event and ends the process.
  pool.on('error', (error) => options.onError?.(error));
  // A checked-out client that loses its connection emits 'error' too; its query fails on its own.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Tables>({ dialect: new SchemaPostgresDialect({ pool, schema }) });
  const storage = await openLoopStorage(db, {
    dialect: { serial: 'serial', schema },
    underLock: (migrate) => underMigrationLock({ pool, schema }, migrate),
  });
  return {
    ...storage,
    poolStats: () => ({ max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * Create the schema and run `migrate` while holding a session advisory lock keyed by the schema,
 * so instances that start together migrate one after another: the first does the work, the others
 * find nothing left to do. Kysely's own lock is taken only after it creates its bookkeeping
 * tables, which races when several instances meet an empty schema.
 */
async function underMigrationLock<T>(
  options: { pool: pg.Pool; schema: string },
  migrate: () => Promise<T>,
): Promise<T> {
  const client = await options.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`versionary:migrate:${options.schema}`]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
      return await migrate();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`versionary:migrate:${options.schema}`]);
    }
  } finally {
    client.release();
  }
}

/**
 * PostgreSQL as Kysely's dialect, with introspection limited to one schema. Kysely's own scans
 * every schema and calls `has_schema_privilege` by name, which fails with 3F000 when another
 * schema is dropped during the scan (its migrator asks before every run). Ours never looks
 * outside its schema, so nothing done elsewhere in the database can fail a migration.
 *
 * @internal exported for the tests
 */
export class SchemaPostgresDialect extends PostgresDialect {
  readonly #schema: string;

  constructor(config: PostgresDialectConfig & { schema: string }) {
    super(config);
    this.#schema = config.schema;
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    const schema = this.#schema;
    const getTables = async (): Promise<TableMetadata[]> => {
      const { rows } = await sql<{ table: string; kind: string; column: string | null; type: string | null }>`
        SELECT c.relname AS table, c.relkind AS kind, a.attname AS column, t.typname AS type
        FROM pg_catalog.pg_class c
        JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace
        LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        LEFT JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
        WHERE ns.nspname = ${schema} AND c.relkind IN ('r', 'v', 'p')
        ORDER BY c.relname, a.attnum`.execute(db);
      const tables = new Map<string, TableMetadata>();
      for (const row of rows) {
        let table = tables.get(row.table);
        if (!table) tables.set(row.table, (table = { name: row.table, schema, isView: row.kind === 'v', columns: [] }));
        if (row.column === null) continue;
        table.columns.push({
          name: row.column,
          dataType: row.type ?? '',
          isAutoIncrementing: false,
          isNullable: true,
          hasDefaultValue: false,
        });
      }
      return [...tables.values()];
    };
    return {
      getSchemas: async () => [{ name: schema }],
      getTables,
      getMetadata: async () => ({ tables: await getTables() }),
    };
  }
}
