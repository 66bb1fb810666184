import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repo, run } from './run.ts';

// The package is not on the registry yet, so the docs install a packed tarball; this keeps the
// registry line (`npm install versionary`) ready for the release: `npm publish --dry-run` passes,
// publishes what an install needs, and npm has nothing in package.json to correct on the way.
// --ignore-scripts: prepack would rebuild dist/, which other tests read while this runs (as in
// packLibrary); --offline: a dry run needs no registry.
test('npm publish --dry-run passes and would publish dist/, bin/ and the README as they are', async () => {
  assert.ok(existsSync(join(repo, 'dist/index.js')), 'dist/ is missing: run `npm run build` first (npm test does)');
  // run() rejects, with npm's output, when npm exits other than 0.
  const { stdout, stderr } = await run('npm', ['publish', '--dry-run', '--ignore-scripts', '--offline', '--json'], {
    cwd: repo,
  });
  const { versionary: published } = JSON.parse(stdout) as {
    versionary: { name: string; files: Array<{ path: string; mode: number }> };
  };
  assert.equal(published.name, 'versionary');
  const files = new Map(published.files.map((f) => [f.path, f.mode]));
  for (const needed of ['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/server.js', 'dist/index.d.ts'])
    assert.ok(files.has(needed), `${needed} is published`);
  assert.ok(
    [...files.keys()].some((path) => path.startsWith('dist/cli/')),
    'the CLI the bin runs is published',
  );
  assert.ok((files.get('bin/versionary.js') ?? 0) & 0o111, 'bin/versionary.js is published, executable');
  // "npm auto-corrected some errors in your package.json when publishing": a field npm rewrites
  // or drops (a bin path, a repository URL) would publish something other than what is written.
  assert.doesNotMatch(stderr, /auto-corrected|pkg fix|errors corrected/, stderr);
});
