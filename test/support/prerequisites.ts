import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { connect } from 'node:net';
import pg from 'pg';

/** Where `npm test` looks for each service it needs. */
export interface PrerequisiteOptions {
  postgresUrl: string;
  redisUrl: string;
  chromiumPath: string;
  /** Install Debian's Chromium with apt when it is missing (only works as root on a Debian-like system). */
  installChromium: boolean;
}

/** What `npm test` uses unless told otherwise: the same defaults as the test helpers. */
export const defaultPrerequisites: PrerequisiteOptions = {
  postgresUrl: process.env.VERSIONARY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.VERSIONARY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  chromiumPath: '/usr/bin/chromium',
  installChromium: true,
};

/**
 * Check what `npm test` needs besides Node: PostgreSQL (its test database is created when the
 * server is up but the database is not), Redis and Chromium (installed with apt as root). Resolves
 * to one line naming what is still missing and how to get it, or to null when all is there.
 */
export async function checkPrerequisites(options: PrerequisiteOptions): Promise<string | null> {
  const [postgres, redis] = await Promise.all([checkPostgres(options.postgresUrl), checkRedis(options.redisUrl)]);
  const missing = [postgres, redis, checkChromium(options), checkNginx()].filter((m): m is string => m !== null);
  return missing.length === 0 ? null : `npm test needs ${missing.join('; ')}.`;
}

async function checkPostgres(url: string): Promise<string | null> {
  const how = (why: string) =>
    `PostgreSQL at ${redact(url)} (${why}: apt-get install postgresql and start it, or set VERSIONARY_TEST_POSTGRES_URL)`;
  const error = await tryQuery(url);
  if (error === null) return null;
  // A server without the test database: create it, so a fresh machine needs no manual step.
  if ((error as { code?: string }).code === '3D000') {
    const target = new URL(url);
    const database = decodeURIComponent(target.pathname.slice(1));
    target.pathname = '/postgres';
    const created = await tryQuery(target.href, `CREATE DATABASE "${database.replaceAll('"', '""')}"`);
    return created === null ? null : how(`no database ${database}, and creating it failed: ${created.message}`);
  }
  return how(error.message || String((error as { code?: string }).code));
}

async function tryQuery(url: string, sql = 'SELECT 1'): Promise<Error | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query(sql);
    return null;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    await client.end().catch(() => undefined);
  }
}

function checkRedis(url: string): Promise<string | null> {
  const target = new URL(url);
  const how = (why: string) =>
    `Redis at ${redact(url)} (${why}: apt-get install redis-server and start it, or set VERSIONARY_TEST_REDIS_URL)`;
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname, port: Number(target.port || 6379) });
    let reply = '';
    const done = (result: string | null) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(3000, () => done(how('no answer in 3 s')));
    socket.on('error', (error) => done(how(error.message)));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n'))
        done(reply.startsWith('+PONG') ? null : how(`PING answered ${reply.trim().slice(0, 80)}`));
    });
  });
}

function checkChromium(options: PrerequisiteOptions): string | null {
  if (isExecutable(options.chromiumPath)) return null;
  // apt installs Debian's package at /usr/bin/chromium, which is where test/support/browser.ts looks.
  const canInstall =
    options.installChromium &&
    options.chromiumPath === '/usr/bin/chromium' &&
    process.getuid?.() === 0 &&
    hasCommand('apt-get');
  if (canInstall) {
    process.stderr.write("npm test: Chromium is missing; installing Debian's chromium with apt-get\n");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
    if (isExecutable(options.chromiumPath)) return null;
  }
  return `Chromium at ${options.chromiumPath} (for the browser tests: apt-get install chromium, as root)`;
}

/** Debian's nginx with lua-nginx-module, resty.core and cjson, for the nginx suite (`.ci/run` installs them). */
function checkNginx(): string | null {
  if (
    isExecutable('/usr/sbin/nginx') &&
    existsSync('/usr/lib/nginx/modules/ngx_http_lua_module.so') &&
    existsSync('/usr/share/lua/5.1/resty/core.lua') &&
    existsSync('/usr/lib/x86_64-linux-gnu/lua/5.1/cjson.so')
  )
    return null;
  return 'nginx with lua-nginx-module (for the nginx tests: apt-get install nginx libnginx-mod-http-lua lua-resty-core lua-cjson, as root)';
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}
