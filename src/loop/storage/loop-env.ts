/**
 * The settings the loop reads, from its caller only: `env` as given (no `process.env` unless the
 * caller passes it, so a library never picks up a variable meant for the app), and `database`
 * over any `DATABASE_URL` in it. The package check and the configuration both read this one
 * object, so the packages asked for are those of the database the loop opens.
 */
export function loopEnv(options: {
  env?: Record<string, string | undefined>;
  database?: string;
}): Record<string, string | undefined> {
  return { ...options.env, ...(options.database !== undefined ? { DATABASE_URL: options.database } : {}) };
}
