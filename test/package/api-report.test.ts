import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { entryPoints, publicExports, renderApiReport } from '../../scripts/api-report.ts';
import { repo } from './run.ts';

test('docs/api-report.md matches the public surface (run `npm run api-report` after an intended change)', () => {
  const checkedIn = readFileSync(join(repo, 'docs/api-report.md'), 'utf8');
  const current = renderApiReport(repo);
  if (checkedIn === current) return;
  const before = new Set(checkedIn.split('\n'));
  const after = new Set(current.split('\n'));
  const added = [...after].filter((l) => !before.has(l)).map((l) => `+ ${l}`);
  const removed = [...before].filter((l) => !after.has(l)).map((l) => `- ${l}`);
  assert.fail(
    `The public API changed; review it, then run \`npm run api-report\` and commit docs/api-report.md:\n${[...removed, ...added].join('\n')}`,
  );
});

test('the exports map and the report name the same entry points, each with types', () => {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    exports: Record<string, { types?: string; default?: string } | string>;
  };
  const fromMap = Object.entries(pkg.exports).filter(([key]) => key !== './package.json');
  assert.deepEqual(
    fromMap.map(([key]) => (key === '.' ? 'versionary' : `versionary/${key.slice(2)}`)),
    entryPoints.map((e) => e.specifier),
  );
  for (const [i, [, target]] of fromMap.entries()) {
    assert.equal(typeof target, 'object');
    const { types, default: js } = target as { types: string; default: string };
    const compiled = entryPoints[i]!.source.replace(/^src\//, './dist/').replace(/\.ts$/, '');
    assert.equal(js, `${compiled}.js`);
    assert.equal(types, `${compiled}.d.ts`);
  }
});

test('the compiled entry points (dist/, through the exports map) export what the sources do', async () => {
  for (const entry of entryPoints) {
    const compiled = (await import(entry.specifier)) as Record<string, unknown>;
    const source = (await import(join(repo, entry.source))) as Record<string, unknown>;
    assert.deepEqual(Object.keys(compiled).sort(), Object.keys(source).sort(), entry.specifier);
    const resolved = import.meta.resolve(entry.specifier);
    assert.match(resolved, /\/dist\/.*\.js$/, `${entry.specifier} resolves to compiled JavaScript, not ${resolved}`);
  }
});

// An @example shows a call: every public function and class (a constant holding a function, such as
// a Fastify plugin, counts as one) needs one. A type or a plain constant needs only its JSDoc line;
// an @example that restates a type's fields as a literal teaches nothing the type does not say.
test('every export has a JSDoc line; every function and class an @example', () => {
  const { checker, entries } = publicExports(repo);
  const missing: string[] = [];
  for (const { specifier, exports } of entries) {
    for (const exported of exports) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const hasDoc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() !== '';
      const hasExample = symbol.getJsDocTags(checker).some((t) => t.name === 'example');
      if (!hasDoc) missing.push(`${specifier}: ${exported.getName()} has no JSDoc`);
      if (!hasExample && isCallable(checker, symbol))
        missing.push(`${specifier}: ${exported.getName()} has no @example`);
    }
  }
  assert.deepEqual(missing, []);
});

function isCallable(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  if (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class)) return true;
  if (!(symbol.flags & ts.SymbolFlags.Variable)) return false;
  const type = checker.getTypeOfSymbol(symbol);
  return type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0;
}
