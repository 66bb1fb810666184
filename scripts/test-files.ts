// The test files `npm test` runs, and the subset CI runs again on the other supported Node line.
// `.ci/run` runs `npm test` (every suite) once, on Node 24, then, on Node 22, only the suites whose
// outcome can change with the Node line: what Node itself provides (the SQLite binding and Node's
// own SQLite, sockets, the HTTP parser and its timeouts, signals and child processes, stdio) and
// installing the packed tarball with that line's npm. Everything else is our code over plain
// values, and gives the same answer on every line.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The suites that run again on the other Node line, each with why the line matters to it. */
const lineSensitive: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  {
    pattern: /^src\/storage\/sqlite\//,
    why: 'the SQLite driver: a native module, and Node’s own SQLite where the line has it',
  },
  {
    pattern: /^test\/storage\/(sqlite|sqlite-permissions|postgres)\.test\.ts$/,
    why: 'the storage contract on the line’s native SQLite binding and its sockets',
  },
  {
    pattern: /^test\/http\/(socket|parser-errors|timeouts)\.test\.ts$/,
    why: 'Node’s HTTP parser, socket handling and timeout checks change between lines',
  },
  {
    pattern: /^test\/(http|gateway)\/query-method\.test\.ts$/,
    why: 'QUERY over sockets: the line’s HTTP parser must know the method, and undici must forward it',
  },
  {
    pattern: /^test\/ops\/oversized-body\.test\.ts$/,
    why: 'a body past the limit: how the line’s HTTP server ends the socket',
  },
  {
    pattern: /^test\/gateway\/(transport|upstream-early|security-lingering)\.test\.ts$/,
    why: 'forwarding over undici and the line’s sockets, and lingering close',
  },
  {
    pattern: /^test\/ops\/(shutdown|port-in-use)\.test\.ts$/,
    why: 'start and stop of the service process on the line',
  },
  { pattern: /^test\/lifecycle\/sigterm\.test\.ts$/, why: 'SIGTERM handling of the service process' },
  {
    pattern: /^test\/package\/(npx-signals|install-warnings|sqlite-only-install)\.test\.ts$/,
    why: 'the packed tarball installed and started with the line’s npm and Node',
  },
  { pattern: /^test\/mcp\/mcp-stdio\.test\.ts$/, why: 'the stdio bridge: the line’s child-process pipes' },
  { pattern: /^test\/client\/live-service\.test\.ts$/, why: 'the client over the line’s own fetch' },
  {
    pattern: /^test\/http\/versioning\.test\.ts$/,
    why: 'a smoke of the whole service (routing, negotiation, lifecycle) on the line',
  },
  { pattern: /^test\/support\/prerequisites\.test\.ts$/, why: 'the preflight checks, run by the line’s Node' },
];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every test file but the fault tests (`npm run test:faults`), sorted; only the line-sensitive ones when asked. */
function testFiles(options: { nodeLine: boolean }): string[] {
  return [...walk('src'), ...walk('test')]
    .filter((file) => !file.startsWith('test/faults/'))
    .filter((file) => !options.nodeLine || lineSensitive.some((s) => s.pattern.test(file)))
    .sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(testFiles({ nodeLine: process.argv.includes('--node-line') }).join('\n') + '\n');
}
