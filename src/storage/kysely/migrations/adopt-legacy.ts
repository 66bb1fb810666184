import { Migrator, sql, type Kysely } from 'kysely';
import { loopPrefix, type MigrationDialect } from './dialect.ts';
import { createLegacyMigrationProvider, legacyMigrationNames, loopMigrationTables, referenceOnly } from './index.ts';

/** The loop's tables by their bare names, as the legacy layout named them. */
const legacyLoopTables = [
  'version_schedules',
  'endpoint_deprecations',
  'usage_calls',
  'api_keys',
  'idempotency_keys',
  'clients',
  'client_contacts',
  'client_webhooks',
  'usage_minutes',
  'usage_days',
  'usage_client_days',
  'usage_totals',
  'usage_elements',
  'usage_operation_hours',
  'notice_outbox',
  'brownouts',
  'change_approvals',
] as const;

/** Where the database is: SQLite, or PostgreSQL in a schema. */
export type AdoptDialect = Pick<MigrationDialect, 'serial'> & { schema?: string };

/**
 * Bring a database migrated before the loop's tables had a prefix into the current layout, once,
 * before the loop's migrations run: when `versionary_migration` does not exist and
 * `kysely_migration` holds our migration names only (an app's own Kysely history is left alone;
 * both in one table is an error, for a person to sort out), finish its legacy migrations, then, in
 * one transaction, rename every loop table, index, sequence and constraint to `versionary_…` and
 * the history to `versionary_migration`. Users and posts keep their names and rows: the reference
 * service's own migrations adopt them.
 * @returns whether the database was adopted.
 */
export async function adoptLegacyLayout(db: Kysely<unknown>, dialect: AdoptDialect): Promise<boolean> {
  const tables = await tableNames(db, dialect.schema);
  if (tables.has(loopMigrationTables.migrationTableName) || !tables.has('kysely_migration')) return false;
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
  const ours = rows.filter((r) => legacyMigrationNames.includes(r.name));
  if (ours.length === 0) return false;
  // Both histories in one table: renaming it would take the app's away, and starting afresh beside
  // it would leave the loop's data behind. Neither is safe to guess.
  if (ours.length < rows.length)
    throw new Error(
      `kysely_migration holds Versionary's migrations (${ours.map((r) => r.name).join(', ')}) and others ` +
        `(${rows
          .filter((r) => !legacyMigrationNames.includes(r.name))
          .map((r) => r.name)
          .join(', ')}): Versionary adopts it only when it holds its own alone. ` +
        "Move the app's rows to a migration table of its own, then start again (docs/loop.md).",
    );
  if (rows.length < legacyMigrationNames.length) {
    const { error } = await new Migrator({
      db,
      provider: createLegacyMigrationProvider(dialect),
      ...(dialect.schema ? { migrationTableSchema: dialect.schema } : {}),
    }).migrateToLatest();
    if (error) throw error;
  }
  await db.transaction().execute(async (tx) => {
    for (const table of legacyLoopTables)
      await sql`ALTER TABLE ${sql.table(table)} RENAME TO ${sql.table(loopPrefix + table)}`.execute(tx);
    if (dialect.schema === undefined) await renameSqliteIndexes(tx);
    else await renamePostgresObjects(tx, dialect.schema);
    await sql`ALTER TABLE kysely_migration RENAME TO ${sql.table(loopMigrationTables.migrationTableName)}`.execute(tx);
    if ((await tableNames(tx, dialect.schema)).has('kysely_migration_lock'))
      await sql`ALTER TABLE kysely_migration_lock RENAME TO ${sql.table(loopMigrationTables.migrationLockTableName)}`.execute(
        tx,
      );
    // Their primary keys' indexes too, on PostgreSQL, named as Kysely names a fresh history's.
    if (dialect.schema !== undefined)
      for (const table of ['migration', 'migration_lock'])
        await sql`ALTER INDEX IF EXISTS ${sql.id(`kysely_${table}_pkey`)} RENAME TO ${sql.id(`${loopPrefix}${table}_pkey`)}`.execute(
          tx,
        );
    await sql`DELETE FROM ${sql.table(loopMigrationTables.migrationTableName)} WHERE name IN (${sql.join(referenceOnly)})`.execute(
      tx,
    );
  });
  return true;
}

async function tableNames(db: Kysely<unknown>, schema: string | undefined): Promise<Set<string>> {
  const { rows } =
    schema === undefined
      ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(db)
      : await sql<{
          name: string;
        }>`SELECT tablename AS name FROM pg_catalog.pg_tables WHERE schemaname = ${schema}`.execute(db);
  return new Set(rows.map((r) => r.name));
}

const unprefixed = (name: string) => !name.startsWith(loopPrefix);
const isLoopTable = (name: string) => legacyLoopTables.some((t) => loopPrefix + t === name);

/** SQLite cannot rename an index: each of the loop's is created again under its new name (its SQL names the renamed table already). */
async function renameSqliteIndexes(tx: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ name: string; table: string; sql: string }>`
    SELECT name, tbl_name AS "table", sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`.execute(tx);
  for (const index of rows.filter((r) => isLoopTable(r.table) && unprefixed(r.name))) {
    const create = index.sql.replace(
      /^(create\s+(?:unique\s+)?index\s+)("?)([A-Za-z0-9_]+)\2/i,
      (_, head: string) => `${head}"${loopPrefix}${index.name}"`,
    );
    await sql`DROP INDEX ${sql.id(index.name)}`.execute(tx);
    await sql.raw(create).execute(tx);
  }
}

/**
 * PostgreSQL's index and sequence names are schema-wide: the loop's are renamed (an index that
 * backs a constraint renames the constraint with it), and so are its foreign keys, so that an
 * adopted schema has the names a fresh one gets.
 */
async function renamePostgresObjects(tx: Kysely<unknown>, schema: string): Promise<void> {
  const { rows: relations } = await sql<{ name: string; kind: string; table: string }>`
    SELECT c.relname AS name, c.relkind AS kind, COALESCE(t.relname, d.relname) AS "table"
    FROM pg_catalog.pg_class c
    JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace
    LEFT JOIN pg_catalog.pg_index i ON i.indexrelid = c.oid
    LEFT JOIN pg_catalog.pg_class t ON t.oid = i.indrelid
    LEFT JOIN pg_catalog.pg_depend dep ON dep.objid = c.oid AND dep.deptype = 'a' AND c.relkind = 'S'
    LEFT JOIN pg_catalog.pg_class d ON d.oid = dep.refobjid
    WHERE ns.nspname = ${schema} AND c.relkind IN ('i', 'S')`.execute(tx);
  for (const r of relations.filter((r) => r.table !== null && isLoopTable(r.table) && unprefixed(r.name)))
    await sql`ALTER ${sql.raw(r.kind === 'S' ? 'SEQUENCE' : 'INDEX')} ${sql.id(r.name)} RENAME TO ${sql.id(loopPrefix + r.name)}`.execute(
      tx,
    );
  const { rows: constraints } = await sql<{ name: string; table: string }>`
    SELECT con.conname AS name, t.relname AS "table"
    FROM pg_catalog.pg_constraint con
    JOIN pg_catalog.pg_class t ON t.oid = con.conrelid
    JOIN pg_catalog.pg_namespace ns ON ns.oid = t.relnamespace
    WHERE ns.nspname = ${schema} AND con.contype = 'f'`.execute(tx);
  for (const c of constraints.filter((c) => isLoopTable(c.table) && unprefixed(c.name)))
    await sql`ALTER TABLE ${sql.table(c.table)} RENAME CONSTRAINT ${sql.id(c.name)} TO ${sql.id(loopPrefix + c.name)}`.execute(
      tx,
    );
}
