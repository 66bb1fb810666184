import type { Compilable, Kysely } from 'kysely';

/**
 * Compile a query once and run it with new parameters each call, for the per-request lookups
 * (a user by id, an API key by id): building and compiling Kysely's query tree costs more than
 * SQLite's read by key. The SQL is the same as building it each time; pass the parameters in the
 * order of the query's placeholders.
 */
export function precompile<D, R>(
  db: Kysely<D>,
  query: Compilable<R>,
  options: { singleRow?: boolean } = {},
): (parameters: readonly unknown[]) => Promise<R[]> {
  const compiled = query.compile();
  // The marker is an SQL comment, harmless to every database; SQLite's statement cache reads it.
  const sql = options.singleRow ? `${compiled.sql} ${singleRowMarker}` : compiled.sql;
  const { query: node, queryId } = compiled;
  // The compiled query's members named, not spread: this runs on every request's lookup.
  return async (parameters) => (await db.executeQuery<R>({ query: node, queryId, sql, parameters })).rows;
}

/**
 * Ends the SQL of a query that reads at most one row (by primary key): the SQLite statement cache
 * runs it with the driver's `get()` instead of `all()`, which on libsql builds a 100-row iterator
 * batch even for one row.
 */
export const singleRowMarker = '/* single row */';
