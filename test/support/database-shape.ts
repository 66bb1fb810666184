import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import Database from 'libsql';
import pg from 'pg';
import { createLegacyMigrationProvider } from '../../src/storage/kysely/migrations/index.ts';
import { SchemaPostgresDialect } from '../../src/storage/postgres/open-postgres-storage.ts';

/** A database to look into: a SQLite file, or a PostgreSQL schema. */
export type Place = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema: string };

/** A Kysely of no particular tables on a place (PostgreSQL's schema created if missing). */
export async function rawDb(place: Place): Promise<Kysely<unknown>> {
  if (place.kind === 'sqlite')
    return new Kysely({ dialect: new SqliteDialect({ database: new Database(place.path) }) });
  const pool = new pg.Pool({ connectionString: place.url, max: 2, options: `-c search_path=${place.schema}` });
  const db = new Kysely<unknown>({ dialect: new SchemaPostgresDialect({ pool, schema: place.schema }) });
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(place.schema)}`.execute(db);
  return db;
}

/** The tables of a place, sorted (SQLite's own `sqlite_*` bookkeeping left out). */
export async function tablesOf(db: Kysely<unknown>, place: Place): Promise<string[]> {
  const { rows } =
    place.kind === 'sqlite'
      ? await sql<{
          name: string;
        }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`.execute(db)
      : await sql<{
          name: string;
        }>`SELECT tablename AS name FROM pg_catalog.pg_tables WHERE schemaname = ${place.schema}`.execute(db);
  return rows.map((r) => r.name).sort();
}

/**
 * What a migrated database looks like, as comparable lines: every table's columns (name, type,
 * not null), every index with its columns, and on PostgreSQL every relation (sequences too) and
 * every constraint by name. Two databases with the same lines have the same shape.
 */
export async function shapeOf(db: Kysely<unknown>, place: Place): Promise<string[]> {
  const lines: string[] = [];
  if (place.kind === 'sqlite') {
    for (const table of await tablesOf(db, place)) {
      const { rows: columns } = await sql<{ name: string; type: string; notnull: number; pk: number }>`
        SELECT name, type, "notnull", pk FROM pragma_table_info(${table})`.execute(db);
      for (const c of columns) lines.push(`column ${table}.${c.name} ${c.type.toLowerCase()} ${c.notnull} ${c.pk}`);
      const { rows: indexes } = await sql<{ name: string; unique: number; origin: string }>`
        SELECT name, "unique", origin FROM pragma_index_list(${table})`.execute(db);
      for (const index of indexes) {
        const { rows: keys } = await sql<{ name: string }>`SELECT name FROM pragma_index_info(${index.name})`.execute(
          db,
        );
        // Constraint indexes are named by SQLite after their table; only their columns matter.
        const name = index.origin === 'c' ? index.name : `(${index.origin})`;
        lines.push(`index ${table} ${name} ${index.unique} ${keys.map((k) => k.name).join(',')}`);
      }
      const { rows: keys } = await sql<{ table: string; from: string; to: string; on_delete: string }>`
        SELECT "table", "from", "to", on_delete FROM pragma_foreign_key_list(${table})`.execute(db);
      for (const k of keys) lines.push(`foreign key ${table}.${k.from} -> ${k.table}.${k.to} ${k.on_delete}`);
    }
  } else {
    const { rows: relations } = await sql<{ name: string; kind: string }>`
      SELECT c.relname AS name, c.relkind AS kind FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace WHERE ns.nspname = ${place.schema}`.execute(db);
    for (const r of relations) lines.push(`relation ${r.kind} ${r.name}`);
    const { rows: columns } = await sql<{ table: string; column: string; type: string; nullable: string }>`
      SELECT table_name AS "table", column_name AS "column", data_type AS type, is_nullable AS nullable
      FROM information_schema.columns WHERE table_schema = ${place.schema}`.execute(db);
    for (const c of columns) lines.push(`column ${c.table}.${c.column} ${c.type} ${c.nullable}`);
    const { rows: constraints } = await sql<{ name: string; table: string; definition: string }>`
      SELECT con.conname AS name, t.relname AS "table", pg_get_constraintdef(con.oid) AS definition
      FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_class t ON t.oid = con.conrelid
      JOIN pg_catalog.pg_namespace ns ON ns.oid = t.relnamespace WHERE ns.nspname = ${place.schema}`.execute(db);
    for (const c of constraints) lines.push(`constraint ${c.table} ${c.name} ${c.definition}`);
    const { rows: indexes } = await sql<{ name: string; definition: string }>`
      SELECT indexname AS name, indexdef AS definition FROM pg_catalog.pg_indexes WHERE schemaname = ${place.schema}`.execute(
      db,
    );
    for (const i of indexes) lines.push(`index ${i.name} ${i.definition.replace(`${place.schema}.`, '')}`);
  }
  return lines.sort();
}

/**
 * Migrate a place as releases before the `versionary_` prefix did: bare table names, users and
 * posts in the same history, Kysely's default `kysely_migration`; up to `to` (all by default).
 */
export async function migrateLegacy(db: Kysely<unknown>, place: Place, to?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: createLegacyMigrationProvider({ serial: place.kind === 'sqlite' ? 'integer' : 'serial' }),
    ...(place.kind === 'postgres' ? { migrationTableSchema: place.schema } : {}),
  });
  const { error } = to ? await migrator.migrateTo(to) : await migrator.migrateToLatest();
  if (error) throw error;
}
