import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';

/** Where the data lives. */
export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** The parsed, validated configuration: nothing reads `process.env` after this. */
export interface ServiceConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  logLevel: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** The JSON config file's content (`VERSIONARY_CONFIG`), validated by the features that own each key. */
  file: Record<string, unknown>;
  configPath?: string;
  /** `VERSIONARY_ADMIN_KEY`: the key the management API accepts. */
  adminKey?: string;
}

/** Inputs of {@link loadConfig}: the environment and a way to read the config file. */
export interface LoadConfigOptions {
  env: Record<string, string | undefined>;
  readFile: (path: string) => string;
}

const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** Top-level keys of the config file that some feature reads. */
export const knownFileKeys = new Set(['bodyLimit', 'audience', 'removedStatus', 'headerStyle', 'versions', 'endpointDeprecations', 'rateLimit', 'usage', 'auth', 'publicBaseUrl']);

/**
 * Parse the environment and the JSON config file once, at start, reporting every error at once.
 *
 * @example
 * ```ts
 * const config = loadConfig({ env: process.env, readFile: (p) => readFileSync(p, 'utf8') });
 * ```
 */
export function loadConfig({ env, readFile }: LoadConfigOptions): ServiceConfig {
  const errors: string[] = [];
  const rawPort = env.PORT ?? '3000';
  const port = /^[0-9]{1,5}$/.test(rawPort) ? Number(rawPort) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) errors.push(`PORT must be an integer from 0 to 65535, not "${env.PORT}"`);
  const host = env.HOST ?? '127.0.0.1';
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!levels.includes(logLevel)) errors.push(`LOG_LEVEL must be one of ${levels.join(', ')}, not "${logLevel}"`);
  const database = parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:./data/versionary.db', errors);
  const configPath = env.VERSIONARY_CONFIG;
  const file = configPath ? readConfigFile({ path: configPath, readFile, errors }) : {};
  for (const key of Object.keys(file)) {
    if (!knownFileKeys.has(key)) errors.push(`${configPath}: unknown key "${key}" (known: ${[...knownFileKeys].join(', ')})`);
  }
  const bodyLimit = file.bodyLimit ?? 1024 * 1024;
  if (typeof bodyLimit !== 'number' || !Number.isInteger(bodyLimit) || bodyLimit < 1024 || bodyLimit > 100 * 1024 * 1024) {
    errors.push(`${configPath}: bodyLimit must be an integer number of bytes from 1024 to 104857600`);
  }
  if (errors.length > 0) {
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: `The configuration has ${errors.length} error(s):\n- ${errors.join('\n- ')}`,
      errors: errors.map((detail) => ({ pointer: '/config', detail })),
    });
  }
  return {
    port, host, database: database!, logLevel, bodyLimit: bodyLimit as number, file,
    ...(configPath ? { configPath } : {}), ...(env.VERSIONARY_ADMIN_KEY ? { adminKey: env.VERSIONARY_ADMIN_KEY } : {}),
  };
}

function parseDatabaseUrl(url: string, errors: string[]): DatabaseConfig | undefined {
  if (url === 'sqlite::memory:') return { kind: 'sqlite', path: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path.length > 0) return { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  errors.push(`DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://..., not "${url}"`);
  return undefined;
}

function readConfigFile(options: { path: string; readFile: (path: string) => string; errors: string[] }): Record<string, unknown> {
  let text: string;
  try {
    text = options.readFile(options.path);
  } catch (error) {
    options.errors.push(`VERSIONARY_CONFIG names ${options.path}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    options.errors.push(`${options.path} must hold a JSON object`);
  } catch (error) {
    options.errors.push(`${options.path} is not valid JSON: ${(error as Error).message}`);
  }
  return {};
}
