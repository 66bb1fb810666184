import { readFileSync } from 'node:fs';
import { pickDefined } from '../../core/config/index.ts';
import { parseDatabaseUrl, readEnv, type EnvConfig } from '../../kernel/config/load-config.ts';
import type { ParsedSettings } from '../../kernel/config/feature-settings.ts';
import { withSettings, type LoopConfig, type SettingsList } from '../host/config.ts';
import type { LoopStorageOptions } from './options.ts';

/**
 * The configuration the parts read, from the loop's typed options: `database`, the keys and
 * secrets, mail and JWTs as given, the settings object parsed as the config file would be. `env`,
 * when the app hands one over, is the shorthand for the same options by their variables (the
 * reference service's names); an option given beside it wins.
 */
export function configOf<List extends SettingsList>(
  list: List,
  options: LoopStorageOptions,
): { config: LoopConfig<ParsedSettings<List>>; errors: string[] } {
  // Without an environment handed over, the reader's own defaults (a SQLite file of its own, …).
  const { values, errors } = readEnv({ env: options.env ?? {}, readFile: (path) => readFileSync(path, 'utf8') });
  const database = options.database === undefined ? undefined : parseDatabaseUrl(options.database, errors);
  const typed: Partial<EnvConfig> = {
    ...(database ? { database } : {}),
    ...pickDefined(options, ['adminKey', 'smtp', 'jwt', 'redisUrl', 'noticeSecret', 'portalSecret']),
  };
  const file = { ...options.settings, ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}) };
  const config = withSettings(list, { values: { ...values, ...typed }, file, fileName: 'settings', errors });
  return { config, errors };
}
