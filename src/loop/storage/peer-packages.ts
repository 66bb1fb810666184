import { readFileSync } from 'node:fs';
import { defaultSqliteDriver } from '../../storage/sqlite/default-driver.ts';
import { loopPartNames, type LoopPartName } from '../host/loop-state.ts';

/** What is being started: the reference service, the gateway, or the loop in an app's own Fastify. */
export type PeerSurface = 'service' | 'gateway' | 'loop';

/** One optional peer that a configuration needs, and the choice that needs it. */
export interface NeededPeer {
  name: string;
  for: string;
}

// What each part of the loop needs, whatever the configuration: schema migrations, metrics, keys
// and JWTs, webhook targets, and the portal's pages, feeds and sign-in.
const portal = ['preact', 'preact-render-to-string', 'htm', 'fast-xml-parser', 'swagger-ui-dist'].map((name) => ({
  name,
  for: 'the portal',
}));
const byPart: Record<LoopPartName, NeededPeer[]> = {
  'versionary-loop-storage': [{ name: 'kysely', for: 'the database' }],
  'versionary-loop-usage': [],
  'versionary-loop-lifecycle': [{ name: 'prom-client', for: 'metrics' }],
  'versionary-loop-access': [{ name: 'jose', for: 'keys and portal sessions' }],
  'versionary-loop-notices': [{ name: 'ipaddr.js', for: 'webhooks' }],
  'versionary-loop-portal': [
    { name: 'jose', for: 'keys and portal sessions' },
    ...portal,
    { name: '@fastify/cookie', for: 'the portal' },
    { name: '@fastify/formbody', for: 'the portal' },
  ],
  'versionary-loop-management': [{ name: 'ipaddr.js', for: 'webhooks' }],
};

/**
 * The optional peer dependencies that a configuration needs, read from the same environment
 * variables as the configuration itself: `pg` only for a `postgres://` `DATABASE_URL`, `ioredis`
 * only with `VERSIONARY_REDIS_URL`, `nodemailer` only for an `smtp://` `VERSIONARY_SMTP_URL`
 * (not `log:`), `libsql` only for SQLite on its libsql driver, `undici` only for the
 * gateway.
 */
export function peersFor(options: {
  env: Record<string, string | undefined>;
  surface: PeerSurface;
  /** The loop's parts being registered; every part by default (the service and the gateway have them all). */
  parts?: readonly LoopPartName[];
  nodeVersion?: string;
}): NeededPeer[] {
  const { env, surface } = options;
  const parts = options.parts ?? loopPartNames;
  const needed = [...new Map(parts.flatMap((part) => byPart[part]).map((peer) => [peer.name, peer])).values()];
  const storage = parts.includes('versionary-loop-storage');
  const notices = parts.includes('versionary-loop-notices');
  if (surface !== 'loop') needed.push({ name: 'fastify', for: 'the server' }, { name: 'pino', for: 'the log' });
  if (surface === 'gateway') needed.push({ name: 'undici', for: 'the gateway' });
  const database = env.DATABASE_URL ?? 'sqlite:./data/versionary.db';
  if (storage && /^postgres(ql)?:\/\//.test(database)) needed.push({ name: 'pg', for: 'PostgreSQL' });
  else if (storage && (env.VERSIONARY_SQLITE_DRIVER ?? defaultSqliteDriver(options.nodeVersion)) === 'libsql')
    needed.push({ name: 'libsql', for: 'SQLite' });
  if (storage && env.VERSIONARY_REDIS_URL) needed.push({ name: 'ioredis', for: 'Redis' });
  if (notices && env.VERSIONARY_SMTP_URL && /^smtps?:/.test(env.VERSIONARY_SMTP_URL))
    needed.push({ name: 'nodemailer', for: 'SMTP mail' });
  return needed;
}

function resolvesHere(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fail at start, once, naming every package the configuration needs and lacks, with the
 * `npm install` line that adds them all: never Node's `ERR_MODULE_NOT_FOUND` for one package at a
 * time. The error's stack is its message, so that an uncaught one prints no trace either.
 */
export function assertPeers(needed: readonly NeededPeer[], resolves = resolvesHere): void {
  // Resolved from this package's place in `node_modules`.
  const missing = needed.filter((peer) => !resolves(peer.name));
  if (missing.length === 0) return;
  const uses = [...new Set(missing.map((peer) => peer.for))].join(', ');
  const message =
    `versionary needs ${missing.length} package(s) that are not installed, for ${uses}: ` +
    `${missing.map((peer) => peer.name).join(', ')}. Install them with:\n\n  ${installLine(missing.map((peer) => peer.name))}\n`;
  throw Object.assign(new Error(message), { code: 'PACKAGES_MISSING', stack: message });
}

/** The `npm install` line that adds `names`, each with the range this package was tested with. */
export function installLine(names: readonly string[]): string {
  return `npm install ${names.map(withRange).join(' ')}`;
}

let ranges: Record<string, string> | undefined;

/** `name@"range"`, with the range this package was tested with. */
function withRange(name: string): string {
  ranges ??= (
    JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies?: Record<string, string>;
    }
  ).peerDependencies;
  const range = ranges?.[name];
  return range ? `${name}@"${range}"` : name;
}
