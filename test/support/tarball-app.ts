import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packLibrary, repo, run } from '../package/run.ts';

/** The optional peers of a SQLite-only start (the loop, the service, the gateway): no pg, ioredis nor nodemailer. */
export const sqliteOnlyPeers = [
  'fastify',
  'kysely',
  'libsql',
  'jose',
  'ipaddr.js',
  'prom-client',
  'pino',
  'preact',
  'preact-render-to-string',
  'htm',
  'fast-xml-parser',
  'swagger-ui-dist',
  '@fastify/cookie',
  '@fastify/formbody',
  'undici',
];

/**
 * The first lines of a team's books app in the packed library's terms: Fastify, the loop's
 * imports, and a v1/v2 bundle (v2 adds an optional `isbn`), as `docs/loop.md` declares it.
 */
export const booksLoopPrelude = `import Fastify from 'fastify';
import { defineVersionChange, defineVersions, fieldAdded, ref } from 'versionary';
import { loopServerOptions, versionaryLoop } from 'versionary/loop';

const schemas = { Book: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer' }, title: { type: 'string' }, isbn: { type: 'string' } } },
  BookList: { type: 'array', items: ref('Book') } };
const operations = [{ id: 'books.list', method: 'GET', path: '/books', summary: 'List books',
  query: { type: 'object', additionalProperties: false }, responses: { 200: { description: 'Books', schema: 'BookList' } } }];
const isbn = defineVersionChange({ description: 'Books gain an optional isbn.', instructions: [fieldAdded('Book', 'isbn')] });
const bundle = defineVersions({ head: { schemas, operations }, versions: [{ name: 'v1' }, { name: 'v2', changes: [isbn] }] });
`;

/**
 * Pack the library, and install the tarball with `peers` (at the ranges of its peerDependencies)
 * into `<tmp>/app`, offline from npm's cache where it can. Resolves with the app's directory.
 */
export async function installTarballApp(tmp: string, peers: readonly string[]): Promise<string> {
  const tarball = await packLibrary(tmp);
  const app = join(tmp, 'app');
  mkdirSync(app, { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }),
  );
  const ranges = (
    JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }
  ).peerDependencies;
  await run(
    'npm',
    [
      'install',
      tarball,
      ...peers.map((name) => `${name}@${ranges[name]!}`),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ],
    { cwd: app },
  );
  return app;
}

/**
 * The packages installed in an app's `node_modules`, scoped ones as `@scope/name`.
 */
export function installedPackages(app: string): string[] {
  const root = join(app, 'node_modules');
  return readdirSync(root).flatMap((name) =>
    name.startsWith('@') ? readdirSync(join(root, name)).map((n) => `${name}/${n}`) : [name],
  );
}

/** A process started in an app, with all it printed. */
export interface AppProcess {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawn `command` in `cwd`, collecting stdout and stderr together.
 */
export function spawnInApp(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): AppProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}
