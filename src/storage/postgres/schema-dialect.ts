import { PostgresDialect, sql } from 'kysely';
import type { DatabaseIntrospector, Kysely, PostgresDialectConfig, TableMetadata } from 'kysely';

/**
 * PostgreSQL as Kysely's dialect, with introspection limited to one schema. Kysely's own scans
 * every schema and calls `has_schema_privilege` by name, which fails with 3F000 when another
 * schema is dropped during the scan (its migrator asks before every run). Ours never looks
 * outside its schema, so nothing done elsewhere in the database can fail a migration.
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
