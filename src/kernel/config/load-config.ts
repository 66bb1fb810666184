import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { parseOpsConfig, type OpsConfig } from '../ops/ops-config.ts';

/** Where the data lives. */
export type DatabaseConfig =
  | {
      kind: 'sqlite';
      path: string;
      /** `VERSIONARY_SQLITE_DRIVER`; unset, the storage picks (`defaultSqliteDriver`). */ driver?: SqliteDriverChoice;
    }
  | { kind: 'postgres'; url: string };

/** The SQLite drivers a deployment may name in `VERSIONARY_SQLITE_DRIVER`. */
type SqliteDriverChoice = 'libsql' | 'node:sqlite';
const sqliteDrivers: readonly SqliteDriverChoice[] = ['libsql', 'node:sqlite'];

/**
 * The environment's part of the configuration, parsed and validated: nothing reads `process.env`
 * after this. The host adds the config file's part (`loop/host/config.ts`, with the list of `loop/settings.ts`).
 */
export interface EnvConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  logLevel: string;
  configPath?: string;
  /** `VERSIONARY_ADMIN_KEY`: a key with the admin role that is never stored. */
  adminKey?: string;
  /** `VERSIONARY_REDIS_URL`: share rate-limit counters between instances through Redis. */
  redisUrl?: string;
  /** JWT verification, when any `VERSIONARY_JWT_*` variable is set. */
  jwt?: JwtConfig;
  /** Timeouts, pools and ports for running many instances (`docs/operations.md`). */
  ops: OpsConfig;
  /** `VERSIONARY_PORTAL_SECRET`: signs portal sign-in cookies; shared by instances. Random per start when unset. */
  portalSecret?: string;
  /** `VERSIONARY_SMTP_URL` and `VERSIONARY_MAIL_FROM`: where notice emails go; absent, emails wait for a transport. */
  smtp?: { url: string; from: string };
  /** `VERSIONARY_NOTICE_SECRET`: signs unsubscribe links; random per start when unset. */
  noticeSecret?: string;
  /**
   * `VERSIONARY_TRUST_PROXY`: Fastify's `trustProxy`, the proxies whose `X-Forwarded-For` names the
   * client: a hop count (`1`), or their addresses and CIDR ranges (`10.0.0.0/8,127.0.0.1`). Unset,
   * the client is the socket's peer.
   */
  trustProxy?: number | string;
}

/** How bearer JWTs are verified. */
export interface JwtConfig {
  /** HS256 shared secret. */
  secret?: string;
  /** PEM public key (RS256, ES256 or EdDSA, from the key type). */
  publicKeyPem?: string;
  /** A JWKS document (from a file) or URL. */
  jwks?: { kind: 'document'; document: unknown } | { kind: 'url'; url: string };
  issuer?: string;
  audience?: string;
  /** `VERSIONARY_JWT_MAX_TOKEN_AGE`: the longest a token may live, in seconds (24 hours by default). */
  maxTokenAgeSeconds?: number;
  /** `VERSIONARY_JWT_CLOCK_SKEW`: seconds of clock difference tolerated on `exp`, `nbf` and `iat` (30 by default). */
  clockSkewSeconds?: number;
}

/** Inputs of {@link loadConfig}: the environment and a way to read the config file. */
export interface LoadConfigOptions {
  env: Record<string, string | undefined>;
  readFile: (path: string) => string;
}

const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** One error listing every configuration problem, one a line. */
export function configError(errors: readonly string[], what = 'The configuration has'): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.InvalidConfig,
    detail: `${what} ${errors.length} error(s):\n- ${errors.join('\n- ')}`,
    errors: errors.map((detail) => ({ pointer: '/config', detail })),
  });
}

/** The environment's part of the configuration, every error at once: only a process's entry point reads it. */
export function readEnv({ env, readFile }: LoadConfigOptions): { values: EnvConfig; errors: string[] } {
  const errors: string[] = [];
  const rawPort = env.PORT ?? '3000';
  const port = /^[0-9]{1,5}$/.test(rawPort) ? Number(rawPort) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    errors.push(`PORT must be an integer from 0 to 65535, not "${env.PORT}"`);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!levels.includes(logLevel)) errors.push(`LOG_LEVEL must be one of ${levels.join(', ')}, not "${logLevel}"`);
  const parsedDatabase = parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:./data/versionary.db', errors);
  const driver = parseSqliteDriver(env.VERSIONARY_SQLITE_DRIVER, errors);
  const database = parsedDatabase?.kind === 'sqlite' && driver ? { ...parsedDatabase, driver } : parsedDatabase;
  const jwt = parseJwtConfig({ env, readFile, errors });
  const ops = parseOpsConfig({ env, errors });
  if (env.VERSIONARY_REDIS_URL && !/^rediss?:\/\//.test(env.VERSIONARY_REDIS_URL))
    errors.push(`VERSIONARY_REDIS_URL must be redis://host:port, not "${env.VERSIONARY_REDIS_URL}"`);
  const smtp = parseSmtp(env, errors);
  const trustProxy = parseTrustProxy(env.VERSIONARY_TRUST_PROXY, errors);
  if (env.VERSIONARY_NOTICE_SECRET !== undefined && env.VERSIONARY_NOTICE_SECRET.length < 32)
    errors.push('VERSIONARY_NOTICE_SECRET must be at least 32 characters');
  if (env.VERSIONARY_ADMIN_KEY && env.VERSIONARY_ADMIN_KEY.length < 16)
    errors.push('VERSIONARY_ADMIN_KEY must be at least 16 characters');
  if (env.VERSIONARY_PORTAL_SECRET !== undefined && env.VERSIONARY_PORTAL_SECRET.length < 32)
    errors.push('VERSIONARY_PORTAL_SECRET must be at least 32 characters');
  const values: EnvConfig = {
    port,
    host: env.HOST ?? '127.0.0.1',
    database: database!,
    logLevel,
    ops,
    ...(env.VERSIONARY_CONFIG ? { configPath: env.VERSIONARY_CONFIG } : {}),
    ...(env.VERSIONARY_ADMIN_KEY ? { adminKey: env.VERSIONARY_ADMIN_KEY } : {}),
    ...(jwt ? { jwt } : {}),
    ...(env.VERSIONARY_REDIS_URL ? { redisUrl: env.VERSIONARY_REDIS_URL } : {}),
    ...(env.VERSIONARY_PORTAL_SECRET ? { portalSecret: env.VERSIONARY_PORTAL_SECRET } : {}),
    ...(smtp ? { smtp } : {}),
    ...(env.VERSIONARY_NOTICE_SECRET ? { noticeSecret: env.VERSIONARY_NOTICE_SECRET } : {}),
    ...(trustProxy !== undefined ? { trustProxy } : {}),
  };
  return { values, errors };
}

/** A hop count, or a list of addresses and CIDR ranges; never `true`, which would let any client name its own address. */
function parseTrustProxy(raw: string | undefined, errors: string[]): number | string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (/^[0-9]{1,2}$/.test(raw)) return Number(raw) === 0 ? undefined : Number(raw);
  const entries = raw.split(',').map((e) => e.trim());
  if (entries.every((e) => /^[0-9A-Fa-f.:]+(\/[0-9]{1,3})?$/.test(e) && /[.:]/.test(e))) return entries.join(',');
  errors.push(
    `VERSIONARY_TRUST_PROXY must be a hop count (1) or the proxies' addresses and CIDR ranges (10.0.0.0/8,127.0.0.1), not "${raw}"`,
  );
  return undefined;
}

function parseSmtp(
  env: Record<string, string | undefined>,
  errors: string[],
): { url: string; from: string } | undefined {
  const url = env.VERSIONARY_SMTP_URL;
  if (!url) {
    if (env.VERSIONARY_MAIL_FROM) errors.push('VERSIONARY_MAIL_FROM is set but VERSIONARY_SMTP_URL is not');
    return undefined;
  }
  // `log:` prints each message instead of sending it: the development transport, needing no server.
  if (url === 'log:') return { url, from: env.VERSIONARY_MAIL_FROM ?? 'versionary <notices@localhost>' };
  if (!/^smtps?:\/\/[^/\s]+/.test(url))
    errors.push('VERSIONARY_SMTP_URL must be smtp://[user:pass@]host:port, smtps://..., or log: (print, do not send)');
  const from = env.VERSIONARY_MAIL_FROM ?? '';
  if (!/^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(from))
    errors.push(
      'VERSIONARY_MAIL_FROM must be an address (notices@example.com or "Name <notices@example.com>") when VERSIONARY_SMTP_URL is set',
    );
  return { url, from };
}

function parseSqliteDriver(raw: string | undefined, errors: string[]): SqliteDriverChoice | undefined {
  if (raw === undefined) return undefined;
  if (sqliteDrivers.includes(raw as SqliteDriverChoice)) return raw as SqliteDriverChoice;
  errors.push(`VERSIONARY_SQLITE_DRIVER must be ${sqliteDrivers.join(' or ')}, not "${raw.slice(0, 40)}"`);
  return undefined;
}

/** A database URL (`sqlite:<path>`, `sqlite::memory:`, `postgres://…`) as the storage opens it. */
export function parseDatabaseUrl(url: string, errors: string[]): DatabaseConfig | undefined {
  if (url === 'sqlite::memory:') return { kind: 'sqlite', path: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path.length > 0) return { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  errors.push(`DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://..., not "${url}"`);
  return undefined;
}

export function readConfigFile(options: {
  path: string;
  readFile: (path: string) => string;
  errors: string[];
}): Record<string, unknown> {
  const text = readNamedFile('VERSIONARY_CONFIG', options);
  if (text === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    options.errors.push(`${options.path} must hold a JSON object`);
  } catch (error) {
    options.errors.push(`${options.path} is not valid JSON: ${(error as Error).message}`);
  }
  return {};
}

/** The file an environment variable names, or undefined with the error said. */
function readNamedFile(
  variable: string,
  options: { path: string; readFile: (path: string) => string; errors: string[] },
): string | undefined {
  try {
    return options.readFile(options.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    options.errors.push(`${variable} names ${options.path}, which cannot be read (${code})`);
    return undefined;
  }
}

function parseJwtConfig(options: {
  env: Record<string, string | undefined>;
  readFile: (path: string) => string;
  errors: string[];
}): JwtConfig | undefined {
  const { env, readFile, errors } = options;
  const jwt: JwtConfig = {};
  if (env.VERSIONARY_JWT_SECRET !== undefined) {
    if (env.VERSIONARY_JWT_SECRET.length < 32)
      errors.push('VERSIONARY_JWT_SECRET must be at least 32 characters (256 bits for HS256)');
    jwt.secret = env.VERSIONARY_JWT_SECRET;
  }
  const read = (variable: string, path: string) => readNamedFile(variable, { path, readFile, errors });
  if (env.VERSIONARY_JWT_PUBLIC_KEY) {
    const pem = read('VERSIONARY_JWT_PUBLIC_KEY', env.VERSIONARY_JWT_PUBLIC_KEY);
    if (pem !== undefined && !pem.includes('-----BEGIN PUBLIC KEY-----'))
      errors.push(`VERSIONARY_JWT_PUBLIC_KEY: ${env.VERSIONARY_JWT_PUBLIC_KEY} is not a PEM public key (SPKI)`);
    else if (pem !== undefined) jwt.publicKeyPem = pem;
  }
  const jwks = env.VERSIONARY_JWT_JWKS;
  if (jwks && /^https?:\/\//.test(jwks)) jwt.jwks = { kind: 'url', url: jwks };
  else if (jwks) {
    const text = read('VERSIONARY_JWT_JWKS', jwks);
    try {
      if (text !== undefined) jwt.jwks = { kind: 'document', document: JSON.parse(text) };
    } catch {
      errors.push(`VERSIONARY_JWT_JWKS: ${jwks} is not valid JSON`);
    }
  }
  if (env.VERSIONARY_JWT_ISSUER) jwt.issuer = env.VERSIONARY_JWT_ISSUER;
  if (env.VERSIONARY_JWT_AUDIENCE) jwt.audience = env.VERSIONARY_JWT_AUDIENCE;
  const seconds = (variable: string, range: { min: number; max: number }): number | undefined => {
    const raw = env[variable];
    if (raw === undefined) return undefined;
    const value = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(value >= range.min && value <= range.max))
      errors.push(`${variable} must be a whole number of seconds from ${range.min} to ${range.max}, not "${raw}"`);
    return value;
  };
  const maxTokenAgeSeconds = seconds('VERSIONARY_JWT_MAX_TOKEN_AGE', { min: 60, max: 31 * 86_400 });
  const clockSkewSeconds = seconds('VERSIONARY_JWT_CLOCK_SKEW', { min: 0, max: 300 });
  if (maxTokenAgeSeconds !== undefined) jwt.maxTokenAgeSeconds = maxTokenAgeSeconds;
  if (clockSkewSeconds !== undefined) jwt.clockSkewSeconds = clockSkewSeconds;
  const verifiers = [jwt.secret, jwt.publicKeyPem, jwt.jwks].filter((v) => v !== undefined).length;
  if (verifiers > 1)
    errors.push('set only one of VERSIONARY_JWT_SECRET, VERSIONARY_JWT_PUBLIC_KEY and VERSIONARY_JWT_JWKS');
  if (verifiers === 0 && (jwt.issuer || jwt.audience))
    errors.push('VERSIONARY_JWT_ISSUER/AUDIENCE need a key: VERSIONARY_JWT_SECRET, _PUBLIC_KEY or _JWKS');
  return verifiers > 0 ? jwt : undefined;
}
