import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { projectRoot } from '../support/contract-tools.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The body of the first fenced block after `heading`. */
function blockAfter(heading: string, fence = 'sh'): string {
  const at = readme.indexOf(heading);
  assert.ok(at >= 0, `no "${heading}" in the README`);
  // The info string may carry attributes after the language (`sh no-run`: test/package/doc-blocks.test.ts).
  const open = new RegExp(`\`\`\`${fence}(?: [^\n]*)?\n`, 'g');
  open.lastIndex = at;
  const match = open.exec(readme)!;
  const start = match.index + match[0].length;
  return readme.slice(start, readme.indexOf('\n```', start));
}
const section = (heading: string) =>
  readme.slice(readme.indexOf(heading), readme.indexOf('\n## ', readme.indexOf(heading) + 1));
const assigned = (shell: string) =>
  new Set([...shell.matchAll(/^(?:export )?([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
// The HTTP services a block talks to (the SMTP catcher's smtp:// address is not one).
const ports = (shell: string) =>
  new Set([...shell.matchAll(/https?:\/\/(?:127\.0\.0\.1|localhost):(\d+)|^PORT=(\d+)/gm)].map((m) => m[1] ?? m[2]));

describe('the README', () => {
  it('runs the CLI as npx versionary (npm does not put the bin on the PATH), and says how to put it there', () => {
    const blocks = [...readme.matchAll(/```(?:sh|yaml)(?: [^\n]*)?\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
    const bare = blocks
      .flatMap((b) => b.split('\n'))
      .filter((line) => /(^|[\s;&|(]|run: )versionary [a-z]/.test(line) && !/npx versionary /.test(line));
    assert.deepEqual(bare, []);
    assert.deepEqual(
      [...readme.matchAll(/`versionary (diff|lint|guide|keys|versions|clients|notices|serve)\b[^`]*`/g)].map(
        (m) => m[0],
      ),
      [],
    );
    assert.match(
      readme,
      /`npm link` in this repository \(or `npm install --global \.\/versionary-[\d.]+\.tgz`, a packed tarball: see\s\[Installing the package\]\(#installing-the-package\)\) puts `versionary` itself on the PATH/,
    );
  });

  it('lists what npm test needs, as the preflight checks it', () => {
    assert.doesNotMatch(readme, /Nothing else is needed/);
    const two = section('## Two commands');
    for (const needed of [
      'postgres://postgres@127.0.0.1:5432/test',
      'VERSIONARY_TEST_POSTGRES_URL',
      'redis://127.0.0.1:6379',
      'VERSIONARY_TEST_REDIS_URL',
      '/usr/bin/chromium',
      'scripts/test-preflight.ts',
    ]) {
      assert.ok(two.includes(needed), needed);
    }
  });

  it('runs the notices walkthrough beside the "Try it" service: another port and database, and variables of its own', () => {
    const tryIt = blockAfter('## Try it');
    const walk = blockAfter('## Deprecation notices');
    const start = walk.split('\n').filter((line) => /npm start$/.test(line));
    assert.equal(start.length, 1);
    const server = walk.slice(walk.lastIndexOf('\n\n', walk.indexOf('npm start')), walk.indexOf('npm start'));
    const port = /^PORT=(\d+) /m.exec(server)?.[1];
    assert.ok(port && !ports(tryIt).has(port) && port !== '3000', `the walkthrough's port ${port}`);
    assert.deepEqual(ports(walk), new Set([port]), 'every URL of the walkthrough names its own service');
    assert.match(
      server,
      /DATABASE_URL=sqlite:\.\/data\/(?!versionary\.db)[\w.-]+ /,
      'a database of its own, so the first start deprecates v1 and knows its admin key',
    );
    // Variables the earlier sections set stay as they were.
    const before = readme.slice(0, readme.indexOf('## Deprecation notices'));
    const earlier = new Set(
      [...before.matchAll(/```sh(?: [^\n]*)?\n([\s\S]*?)\n```/g)].flatMap((m) => [...assigned(m[1]!)]),
    );
    assert.ok(earlier.has('KEY') && earlier.has('ADMIN'));
    assert.deepEqual(
      [...assigned(walk)].filter((name) => earlier.has(name)),
      [],
    );
    const used = new Set([...walk.matchAll(/\$([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!));
    assert.deepEqual(
      [...used].filter((name) => !assigned(walk).has(name)),
      [],
      'every variable the walkthrough reads, it sets',
    );
  });

  it('says which Node lines work as package.json engines does, and CI runs the lines it names', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    const range = pkg.engines.node;
    const node = section('## Node support and the build');
    assert.ok(node.includes(`"engines": { "node": "${range}" }`), `the README quotes engines.node, ${range}`);
    // The lowest release of a major the range admits ("22.13"), or null when it admits none.
    const floor = (major: number): string | null => {
      for (const clause of range.split('||').map((c) => c.trim())) {
        const m = /^(\^|>=)(\d+)\.(\d+)\.\d+$/.exec(clause);
        assert.ok(m, `engines clause ${clause}: ^x.y.z or >=x.y.z`);
        const [, op, min, minor] = m;
        if (Number(min) === major) return `${major}.${minor}`;
        if (op === '>=' && major > Number(min)) return `${major}.0`;
      }
      return null;
    };
    const rows = [...node.matchAll(/^\| (\d+)([^|]*)\| ([^|]+) \|/gm)].map((m) => ({
      major: Number(m[1]),
      line: m[1]! + m[2]!,
      status: m[3]!,
    }));
    assert.ok(rows.length >= 3, 'the table of Node lines');
    const run = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
    for (const { major, line, status } of rows) {
      const admitted = floor(major);
      if (/recommended|supported/.test(status) && !/not supported/.test(status)) {
        assert.ok(admitted, `the README supports Node ${major}, engines (${range}) does not`);
        if (!admitted.endsWith('.0'))
          assert.ok(line.includes(`${admitted} or later`), `Node ${major}: say ${admitted}`);
        assert.ok(run.includes(`.ci/node-line.sh ${major}`), `.ci/run runs Node ${major}`);
      } else {
        assert.match(status, /not supported/);
        assert.equal(admitted, null, `engines (${range}) admits Node ${major}, which the README does not support`);
      }
    }
    const lines = /Node\.js (\d+), the current LTS, is recommended; (\d+) \((\d+\.\d+) or later\) is supported/.exec(
      section('## Two commands'),
    );
    assert.ok(lines, 'the two commands name the Node lines');
    assert.ok(floor(Number(lines[1])) && floor(Number(lines[2])) === lines[3], 'as engines says');
    assert.match(rows.find((r) => r.major === Number(lines[1]))!.status, /recommended/);
  });

  it('states the tarball size npm pack reports, within 10%', () => {
    const stated = /The `npm pack` tarball is about ([\d.]+) kB \(([\d.]+) MB unpacked, ([\d,]+) files/.exec(readme);
    assert.ok(stated, 'the README states the tarball size');
    // --ignore-scripts: the prepack script would rebuild dist/, which other tests read while this runs.
    const [pack] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: projectRoot, encoding: 'utf8' }),
    ) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
    const near = (claimed: number, actual: number, what: string) =>
      assert.ok(
        Math.abs(claimed - actual) / actual <= 0.1,
        `${what}: the README says ${claimed}, npm pack says ${actual}`,
      );
    near(Number(stated[1]) * 1000, pack!.size, 'packed bytes');
    near(Number(stated[2]) * 1_000_000, pack!.unpackedSize, 'unpacked bytes');
    near(Number(stated[3]!.replace(',', '')), pack!.entryCount, 'files');
  });
});
