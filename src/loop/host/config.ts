import { parseFeatureSettings, type ParsedSettings } from '../../kernel/config/feature-settings.ts';
import {
  configError,
  readConfigFile,
  readEnv,
  type EnvConfig,
  type LoadConfigOptions,
} from '../../kernel/config/load-config.ts';
import { serviceSettings } from './settings.ts';

/** The parsed, validated configuration: the environment's part, and the config file's, parsed by each part's parser. */
export interface ServiceConfig extends EnvConfig {
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** The JSON config file's content (`VERSIONARY_CONFIG`), validated by the parts that own each key. */
  file: Record<string, unknown>;
  /** Each part's section of the config file, parsed by the part's own parser (`settings.ts`). */
  settings: ParsedSettings<typeof serviceSettings>;
}

/**
 * Parse the environment and the JSON config file once, at start, reporting every error at once.
 */
export function loadConfig(options: LoadConfigOptions): ServiceConfig {
  const { config, errors } = readConfig(options);
  if (errors.length > 0) throw configError(errors);
  return config;
}

/**
 * {@link loadConfig} without the throw: every error, and whatever parsed beside them (a field
 * with an error holds its default or nothing), so a start can add the checks that need the parsed
 * settings (the lifecycle policy, the gateway's documents) and report everything in one message.
 */
export function readConfig(options: LoadConfigOptions): { config: ServiceConfig; errors: string[] } {
  const { values, errors } = readEnv(options);
  const file = values.configPath ? readConfigFile({ path: values.configPath, readFile: options.readFile, errors }) : {};
  return { config: withSettings({ values, file, fileName: values.configPath, errors }), errors };
}

/**
 * The configuration of `values` with the settings of `file` (the config file's content, or the
 * loop's `settings` option), every feature's settings parsed in the same pass, so that one start
 * reports every error of the file.
 */
export function withSettings(options: {
  values: EnvConfig;
  file: Record<string, unknown>;
  fileName: string | undefined;
  errors: string[];
}): ServiceConfig {
  const { values, file, fileName, errors } = options;
  const settings = parseFeatureSettings({
    list: serviceSettings,
    file,
    errors,
    ownKeys: ['bodyLimit'],
    ...(fileName ? { fileName } : {}),
  });
  const bodyLimit = file.bodyLimit ?? 1024 * 1024;
  if (
    typeof bodyLimit !== 'number' ||
    !Number.isInteger(bodyLimit) ||
    bodyLimit < 1024 ||
    bodyLimit > 100 * 1024 * 1024
  ) {
    errors.push(`${fileName}: bodyLimit must be an integer number of bytes from 1024 to 104857600`);
  }
  return { ...values, bodyLimit: bodyLimit as number, file, settings };
}
