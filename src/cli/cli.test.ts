// Exit codes are the CI contract, so these spawn the real executable. They run concurrently to
// stay fast; in-process tests below cover the dispatcher without a child process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { commands } from './commands/index.ts';
import { runCli } from './main.ts';
import type { CliIo } from './command.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(repo, 'bin/versionary.js');
const fx = (name: string) => `test/fixtures/compat/${name}`;

function run(args: string[], nodeArgs: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...nodeArgs, bin, ...args], { cwd: repo }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

// A module load hook that names each file the process loads on stderr.
const loadHook = `export async function load(url, context, next) {
  if (url.startsWith('file:')) process.stderr.write('loaded ' + url + '\\n');
  return next(url, context);
}`;
const registerLoadHook = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(loadHook)}`)});`;

describe('versionary diff exit codes', { concurrency: true }, () => {
  it('loads the compat core alone: no config schemas (TypeBox, Ajv), no service (Fastify)', async () => {
    // They cost about 0.2 s of CPU at start-up, 15% of a diff of the Stripe pair (bench/README.md).
    const hook = ['--import', `data:text/javascript,${encodeURIComponent(registerLoadHook)}`];
    const r = await run(['diff', fx('v1.yaml'), fx('v2-compatible.json')], hook);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^loaded .*\/compat\/diff-openapi\.js$/m);
    assert.doesNotMatch(r.stderr, /^loaded .*\/node_modules\/(@sinclair\/typebox|ajv|fastify)\//m);
  });
  it('0 when nothing breaks (multi-file YAML against inlined JSON)', async () => {
    const r = await run(['diff', fx('v1.yaml'), fx('v2-compatible.json')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /0 breaking, 0 risk, 1 compatible/);
  });
  it('1 when a change breaks, with a JSON report', async () => {
    const r = await run(['diff', fx('v1.yaml'), fx('v2-breaking.yaml'), '--format', 'json']);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout) as {
      summary: { breaking: number };
      changes: { id: string; location: { document?: string } }[];
    };
    assert.equal(report.summary.breaking, 1);
    assert.equal(report.changes[0]?.id, 'response-property-removed');
    assert.equal(report.changes[0]?.location.document, 'test/fixtures/compat/common.yaml');
  });
  it('a risk passes by default and fails with --fail-on risk', async () => {
    const [lenient, strict] = await Promise.all([
      run(['diff', fx('v1.yaml'), fx('v2-risk.json')]),
      run(['diff', fx('v1.yaml'), fx('v2-risk.json'), '--fail-on', 'risk', '--format', 'markdown']),
    ]);
    assert.equal(lenient.code, 0);
    assert.equal(strict.code, 1);
    assert.match(strict.stdout, /## Risks \(1\)/);
  });
  it('2 with a clear message for a missing file, invalid JSON or YAML, a broken $ref, a non-OpenAPI file', async () => {
    const cases: [string, RegExp][] = [
      ['missing.json', /SPEC_UNREADABLE: cannot read test\/fixtures\/compat\/missing\.json: no such file/],
      ['invalid.json', /SPEC_INVALID: test\/fixtures\/compat\/invalid\.json: invalid JSON/],
      ['invalid.yaml', /SPEC_INVALID: test\/fixtures\/compat\/invalid\.yaml:\d+:\d+: invalid YAML/],
      [
        'broken-ref.yaml',
        /REF_BROKEN: .*"#\/components\/schemas\/Missing" at test\/fixtures\/compat\/broken-ref\.yaml#\/paths\/~1api~1v1~1users\/get/,
      ],
      [
        'missing-file-ref.yaml',
        /REF_BROKEN: .*"nowhere\.yaml#\/User" at test\/fixtures\/compat\/missing-file-ref\.yaml#\/paths.* \(no such file\)/,
      ],
      ['swagger2.json', /SPEC_INVALID: .*expected an OpenAPI 3\.x document/],
    ];
    const results = await Promise.all(cases.map(([file]) => run(['diff', fx('v1.yaml'), fx(file)])));
    results.forEach((r, i) => {
      const [file, pattern] = cases[i] as [string, RegExp];
      assert.equal(r.code, 2, file);
      assert.match(r.stderr, pattern, file);
      assert.doesNotMatch(r.stderr, /\n\s+at /, `no stack trace for ${file}`);
      assert.equal(r.stdout, '');
    });
  });
});

describe('versionary lint and guide', { concurrency: true }, () => {
  it('lint: 1 with findings, 0 when clean', async () => {
    const [dirty, clean] = await Promise.all([
      run(['lint', fx('lint-dirty.yaml'), '--format', 'json']),
      run(['lint', fx('v1.yaml')]),
    ]);
    assert.equal(dirty.code, 1);
    const rules = (JSON.parse(dirty.stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule);
    assert.deepEqual(rules, [
      'collection-not-plural',
      'identifier-in-query',
      'unversioned-path',
      'error-not-problem-details',
      'deprecated-without-sunset',
    ]);
    assert.equal(clean.code, 0, clean.stdout);
  });
  it('guide: writes an HTML page to --out', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'versionary-guide-'));
    try {
      const out = join(dir, 'guide.html');
      const r = await run([
        'guide',
        fx('v1.yaml'),
        fx('v2-breaking.yaml'),
        '--from',
        'v1',
        '--to',
        'v2',
        '--format',
        'html',
        '--out',
        out,
        '--deprecated-at',
        '2026-01-01',
        '--note',
        'Names move to profiles.',
      ]);
      assert.equal(r.code, 0, r.stderr);
      const html = await readFile(out, 'utf8');
      assert.match(html, /<!doctype html>/);
      assert.match(html, /2026-06-30T00:00:00Z/);
      assert.match(html, /Names move to profiles\./);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('usage errors exit 2', async () => {
    const [unknownCommand, unknownFlag, badChoice, missingArg] = await Promise.all([
      run(['frobnicate']),
      run(['diff', 'a', 'b', '--colour']),
      run(['diff', 'a', 'b', '--format', 'xml']),
      run(['guide', fx('v1.yaml'), fx('v1.yaml')]),
    ]);
    assert.equal(unknownCommand.code, 2);
    assert.match(unknownCommand.stderr, /unknown command "frobnicate"/);
    assert.equal(unknownFlag.code, 2);
    assert.match(unknownFlag.stderr, /unknown option --colour/);
    assert.equal(badChoice.code, 2);
    assert.match(badChoice.stderr, /--format must be one of text, markdown, json/);
    assert.equal(missingArg.code, 2);
    assert.match(missingArg.stderr, /--from and --to are required/);
  });
});

describe('an unknown flag', { concurrency: true }, () => {
  // Every command: its own usage line and exit 2, in the CLI's words rather than parseArgs's.
  for (const [name, entry] of Object.entries(commands)) {
    it(`versionary ${name} --no-such-flag answers with the usage of ${name}`, async () => {
      const command = await entry.load();
      assert.equal(command.name, name);
      const r = await run([command.name, '--no-such-flag']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`^versionary ${command.name}: unknown option --no-such-flag\\n`));
      assert.ok(r.stderr.includes(command.help.split('\n\n')[0]!), r.stderr);
      assert.doesNotMatch(r.stderr, /ERR_PARSE_ARGS|To specify a positional argument|Unknown option '/);
      assert.equal(r.stdout, '');
    });
  }
  it('a flag that needs a value says so', async () => {
    const r = await run(['gateway', '--port']);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^versionary gateway: option --port needs a value\n\nUsage: npx versionary gateway \[--config/,
    );
  });
});

describe('dispatcher in process', () => {
  const memoryIo = () => {
    const out = { stdout: '', stderr: '' };
    const io: CliIo = {
      stdout: (t) => {
        out.stdout += t;
      },
      stderr: (t) => {
        out.stderr += t;
      },
      cwd: repo,
      now: () => Date.UTC(2026, 0, 1),
    };
    return { io, out };
  };
  it('--help on each command prints its usage, run through npx (the bin is not on the PATH), and exits 0', async () => {
    for (const name of Object.keys(commands)) {
      const { io, out } = memoryIo();
      assert.equal(await runCli([name, '--help'], io), 0);
      assert.match(out.stdout, new RegExp(`^Usage: npx versionary ${name}`));
      assert.deepEqual(
        out.stdout.split('\n').filter((line) => /^\s*(Usage: )?versionary /.test(line)),
        [],
        name,
      );
    }
    const global = memoryIo();
    assert.equal(await runCli(['--help'], global.io), 0);
    assert.match(global.out.stdout, /^Usage: npx versionary <command>/);
    // Not `npm install --global versionary`: the package is not on the registry yet.
    assert.match(
      global.out.stdout,
      /npm link in this repository \(or npm install --global on the tarball .*\) puts versionary on the PATH/,
    );
  });
  it('no command prints the command list and exits 2; --help exits 0', async () => {
    const none = memoryIo();
    assert.equal(await runCli([], none.io), 2);
    assert.match(none.out.stderr, /diff .*\n.*lint .*\n.*guide/);
    assert.equal(await runCli(['--help'], memoryIo().io), 0);
  });
  it('diff judges sunset dates at the clock, or at --now', async () => {
    const today = memoryIo();
    assert.equal(await runCli(['diff', fx('sunset-v1.yaml'), fx('sunset-v2.yaml')], today.io), 1);
    assert.match(today.out.stdout, /removed before its sunset date 2027-01-01/);
    const later = memoryIo();
    assert.equal(
      await runCli(['diff', fx('sunset-v1.yaml'), fx('sunset-v2.yaml'), '--now', '2027-02-01T00:00:00Z'], later.io),
      0,
    );
    assert.match(later.out.stdout, /after its sunset date 2027-01-01/);
    const bad = memoryIo();
    assert.equal(await runCli(['diff', fx('sunset-v1.yaml'), fx('sunset-v2.yaml'), '--now', 'tomorrow'], bad.io), 2);
    assert.match(bad.out.stderr, /--now must be an ISO 8601 date or instant, got "tomorrow"/);
  });
  it('guide defaults the deprecation date to now', async () => {
    const { io, out } = memoryIo();
    assert.equal(
      await runCli(
        ['guide', fx('v1.yaml'), fx('v2-compatible.json'), '--from', 'v1', '--to', 'v2', '--format', 'json'],
        io,
      ),
      0,
    );
    assert.equal(
      (JSON.parse(out.stdout) as { timeline: { sunsetAt: string } }).timeline.sunsetAt,
      '2026-06-30T00:00:00Z',
    );
  });
});
