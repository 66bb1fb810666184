import type { LoopConfig } from './config.ts';

/** What the package check reads: `env` as given (never `process.env` unless passed), with the typed options over it. */
export function loopEnv(options: {
  env?: Record<string, string | undefined>;
  database?: string;
  redisUrl?: string;
  smtp?: { url: string };
  host?: { config?: LoopConfig };
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
  return {
    ...options.env,
    ...(options.database !== undefined ? { DATABASE_URL: options.database } : {}),
    ...(options.redisUrl !== undefined ? { VERSIONARY_REDIS_URL: options.redisUrl } : {}),
    ...(options.smtp !== undefined ? { VERSIONARY_SMTP_URL: options.smtp.url } : {}),
  };
}
