// The test files `npm test` runs, and the subset CI runs again on each other supported Node line.
// A suite listed in `onceOnly` runs once, on the machine's Node: what it checks does not change
// with the Node line (a browser, a packed tarball, property runs over the same code), and it is
// where most of the suite's time goes. Everything else runs on every line.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Slow suites that run once per CI run, each with why once is enough. */
const onceOnly: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  { pattern: /^test\/package\//, why: 'packs the tarball and installs it with npm: the package, not the Node line' },
  { pattern: /-browser\.test\.ts$/, why: 'drives Chromium: the pages, not the Node line' },
  { pattern: /^test\/readme\//, why: 'runs the README in a fresh app from the tarball' },
  {
    pattern: /^test\/openapi\/(live-conformance|constraint-edges)\.test\.ts$/,
    why: 'property runs of the documents against the service: the same code on every line',
  },
  { pattern: /\/property\.test\.ts$/, why: 'fast-check property runs: the same code on every line' },
  { pattern: /^test\/ops\/signals\.test\.ts$/, why: 'rounds of real processes signalled at random instants' },
];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every test file but the fault tests (`npm run test:faults`), sorted; without the once-only suites when asked. */
function testFiles(options: { nodeLine: boolean }): string[] {
  return [...walk('src'), ...walk('test')]
    .filter((file) => !file.startsWith('test/faults/'))
    .filter((file) => !options.nodeLine || !onceOnly.some((s) => s.pattern.test(file)))
    .sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(testFiles({ nodeLine: process.argv.includes('--node-line') }).join('\n') + '\n');
}
