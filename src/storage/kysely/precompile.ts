import type { Compilable, Kysely } from 'kysely';

/**
 * Compile a query once and run it with new parameters each call, for the per-request lookups
 * (a user by id, an API key by id): building and compiling Kysely's query tree costs more than
 * SQLite's read by key. The SQL is the same as building it each time; pass the parameters in the
 * order of the query's placeholders.
 *
 * @example
 * ```ts
 * const byId = precompile(db, db.selectFrom('users').selectAll().where('id', '=', 0));
 * const rows = await byId([7]);
 * ```
 */
export function precompile<D, R>(db: Kysely<D>, query: Compilable<R>): (parameters: readonly unknown[]) => Promise<R[]> {
  const compiled = query.compile();
  return async (parameters) => (await db.executeQuery<R>({ ...compiled, parameters })).rows;
}
