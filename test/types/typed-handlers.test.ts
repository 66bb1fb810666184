import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Handlers typed from their schemas: fixtures under compiles/ must type-check, and each line of
// fails/ marked `// expect TSnnnn` must give exactly that error (tsconfig.json leaves fails/ out
// of the project's own `tsc --noEmit`). One program compiles both, with the project's options.
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const fixtures = join(here, 'fixtures');
const filesIn = (dir: string) =>
  readdirSync(join(fixtures, dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(fixtures, dir, f));

const config = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
const { options } = ts.convertCompilerOptionsFromJson(config.config.compilerOptions, root);
const compiles = filesIn('compiles');
const fails = filesIn('fails');
const program = ts.createProgram([...compiles, ...fails], { ...options, noEmit: true });
const diagnostics = ts.getPreEmitDiagnostics(program);

const at = (d: ts.Diagnostic) => {
  const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
  return {
    file: d.file?.fileName ?? '',
    line,
    code: d.code,
    text: ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]!,
  };
};

test('the typed fixtures compile without an error', () => {
  const found = diagnostics.map(at).filter((d) => !fails.includes(d.file));
  assert.deepEqual(found, []);
});

for (const file of fails) {
  test(`each marked line of fails/${file.split('/').pop()} fails tsc with its error, and nothing else does`, () => {
    const expected = readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((text, i) => {
        const match = /\/\/ expect TS(\d+)/.exec(text);
        return match ? [`${i + 1}: TS${match[1]}`] : [];
      });
    assert.ok(expected.length > 0, 'the fixture marks its errors');
    const found = diagnostics.map(at).filter((d) => d.file === file);
    assert.deepEqual(
      [...new Set(found.map((d) => `${d.line}: TS${d.code}`))],
      expected,
      found.map((d) => `${d.line}: ${d.text}`).join('\n'),
    );
  });
}
