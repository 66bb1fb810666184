import { readFileSync } from 'node:fs';
import {
  parseDatabaseUrl,
  readEnv,
  withSettings,
  type EnvConfig,
  type ServiceConfig,
} from '../../kernel/config/load-config.ts';
import { parseOpsConfig } from '../../kernel/ops/ops-config.ts';
import type { LoopStorageOptions } from './part.ts';

/**
 * The configuration the parts read, from the loop's typed options: `database`, the keys and
 * secrets, mail and JWTs as given, the settings object parsed as the config file would be. `env`,
 * when the app hands one over, is the shorthand for the same options by their variables (the
 * reference service's names); an option given beside it wins.
 */
export function configOf(options: LoopStorageOptions): { config: ServiceConfig; errors: string[] } {
  const { values, errors } = options.env
    ? readEnv({ env: options.env, readFile: (path) => readFileSync(path, 'utf8') })
    : { values: defaults(), errors: [] as string[] };
  const database = options.database === undefined ? undefined : parseDatabaseUrl(options.database, errors);
  const typed: Partial<EnvConfig> = {
    ...(database ? { database } : {}),
    ...pick(options, ['adminKey', 'smtp', 'jwt', 'redisUrl', 'noticeSecret', 'portalSecret']),
  };
  const file = { ...options.settings, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}) };
  const config = withSettings({ values: { ...values, ...typed }, file, fileName: 'settings', errors });
  return { config, errors };
}

/** What an app that hands the loop no environment gets: a SQLite file of its own, Fastify's defaults. */
function defaults(): EnvConfig {
  return {
    port: 3000,
    host: '127.0.0.1',
    logLevel: 'info',
    database: { kind: 'sqlite', path: './data/versionary.db' },
    ops: parseOpsConfig({ env: {}, errors: [] }),
  };
}

function pick<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(
    keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]),
  ) as Partial<Pick<T, K>>;
}
