import type { ParseArgsConfig } from 'node:util';
import { readString, type OptionValues } from './command.ts';

/** `--config`, `--port` and `--host` of the commands that start a server (`serve`, `gateway`). */
export const listenOptions: NonNullable<ParseArgsConfig['options']> = {
  config: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
};

/**
 * The environment with the flags in place of `VERSIONARY_CONFIG`, `PORT` and `HOST`: a flag wins
 * over its variable, and the configuration checks both the same way.
 */
export function listenEnv(
  env: Record<string, string | undefined>,
  values: OptionValues,
): Record<string, string | undefined> {
  const config = readString(values, 'config');
  const port = readString(values, 'port');
  const host = readString(values, 'host');
  return {
    ...env,
    ...(config !== undefined ? { VERSIONARY_CONFIG: config } : {}),
    ...(port !== undefined ? { PORT: port } : {}),
    ...(host !== undefined ? { HOST: host } : {}),
  };
}
