import type { ServiceConfig } from '../../kernel/config/load-config.ts';

/**
 * The settings the loop reads, from its caller only: `env` as given (no `process.env` unless the
 * caller passes it, so a library never picks up a variable meant for the app), and `database`
 * over any `DATABASE_URL` in it. The package check and the configuration both read this one
 * object, so the packages asked for are those of the database the loop opens.
 */
export function loopEnv(options: {
  env?: Record<string, string | undefined>;
  database?: string;
  host?: { config?: ServiceConfig };
}): Record<string, string | undefined> {
  // A configuration read already (the reference service's): the packages are those it names.
  const config = options.host?.config;
  if (config) {
    const { database } = config;
    return {
      DATABASE_URL: database.kind === 'postgres' ? database.url : `sqlite:${database.path}`,
      ...(database.kind === 'sqlite' && database.driver ? { VERSIONARY_SQLITE_DRIVER: database.driver } : {}),
      ...(config.redisUrl ? { VERSIONARY_REDIS_URL: config.redisUrl } : {}),
      ...(config.smtp ? { VERSIONARY_SMTP_URL: config.smtp.url } : {}),
    };
  }
  return { ...options.env, ...(options.database !== undefined ? { DATABASE_URL: options.database } : {}) };
}
