import {
  parseFeatureSettings,
  type FeatureSettings,
  type ParsedSettings,
} from '../../kernel/config/feature-settings.ts';
import { parseGatewaySettings } from '../../kernel/config/gateway-settings.ts';
import { parseTimeoutSettings } from '../../kernel/app/timeouts.ts';
import { readConfigFile, readEnv, type EnvConfig, type LoadConfigOptions } from '../../kernel/config/load-config.ts';

/** The parsed configuration: the environment's part, and each part's section parsed by that part. */
export interface LoopConfig<Settings extends object = object> extends EnvConfig {
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** The JSON config file's content (`VERSIONARY_CONFIG`), validated by the parts that own each key. */
  file: Record<string, unknown>;
  settings: Settings;
}

export type SettingsList = Record<string, FeatureSettings<unknown>>;

/** Parse the environment and the JSON config file once, reporting every error; a start can add the checks that need the parsed settings. */
export function readConfig<List extends SettingsList>(
  list: List,
  options: LoadConfigOptions,
): { config: LoopConfig<ParsedSettings<List>>; errors: string[] } {
  const { values, errors } = readEnv(options);
  const file = values.configPath ? readConfigFile({ path: values.configPath, readFile: options.readFile, errors }) : {};
  return { config: withSettings(list, { values, file, fileName: values.configPath, errors }), errors };
}

/** The configuration of `values` with the settings of `file`, every section parsed in one pass. */
export function withSettings<List extends SettingsList>(
  list: List,
  options: {
    values: EnvConfig;
    file: Record<string, unknown>;
    fileName: string | undefined;
    errors: string[];
  },
): LoopConfig<ParsedSettings<List>> {
  const { values, file, fileName, errors } = options;
  const settings = parseFeatureSettings({
    list,
    file,
    errors,
    ownKeys: ['bodyLimit'],
    ...(fileName ? { fileName } : {}),
  });
  const bodyLimit = (file.bodyLimit ?? 1024 * 1024) as number;
  if (!isBodyLimit(bodyLimit))
    errors.push(`${fileName}: bodyLimit must be an integer number of bytes from 1024 to 104857600`);
  return { ...values, bodyLimit, file, settings };
}

/** `bodyLimit`'s rule: a whole number of bytes from 1 KiB to 100 MiB. */
export const isBodyLimit = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 1024 && (value as number) <= 100 * 1024 * 1024;

/** A part's section of the config file, and its reader. */
export interface SettingsSection<Name extends string, T> extends FeatureSettings<T> {
  readonly name: Name;
  /** This section of `config`, as its parser returned it: the storage part parsed the sections it was given. */
  of(config: LoopConfig): T;
}

/** Declare a part's section; a part reads its own with `section.of(config)`, so none imports the list. */
export function settingsSection<const Name extends string, T>(
  name: Name,
  settings: FeatureSettings<T>,
): SettingsSection<Name, T> {
  return { name, ...settings, of: (config) => (config.settings as Record<string, T>)[name]! };
}

/** The server's timeouts: beneath the parts, since they apply to the whole server. */
export const timeoutsSection = settingsSection('timeouts', { keys: ['timeouts'], parse: parseTimeoutSettings });

/** A gateway's versions and upstreams: read by the lifecycle's decision table and by the gateway. */
export const gatewaySection = settingsSection('gateway', { keys: ['gateway'], parse: parseGatewaySettings });
