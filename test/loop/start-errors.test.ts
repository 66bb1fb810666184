import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { spawnService } from '../support/service-process.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const app = fileURLToPath(new URL('./fixtures/loop-app.mjs', import.meta.url));
const bin = join(repo, 'bin/versionary.js');

function node(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: repo, env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const stackFrame = /\n\s+at .+:\d+:\d+/;
const occurrences = (text: string, part: string) => text.split(part).length - 1;

// Errors at start come in one pass, as one readable message, without a stack trace.
describe('errors at start', () => {
  it('the loop reports its settings and handler errors together, once, with "did you mean", and no stack', async () => {
    const r = await node([app], {
      SETTINGS: JSON.stringify({ versoins: {}, notices: { reminderDayz: [30] } }),
      HANDLERS: JSON.stringify(['books.list', 'books.nope']),
    });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /versionary\/loop cannot start: INVALID_CONFIG: The loop's options have 4 error\(s\)/);
    for (const part of [
      'unknown key "versoins"; did you mean "versions"?',
      'notices: unknown key "reminderDayz"; did you mean "reminderDays"?',
      'handlers lacks a function for operation(s): books.get',
      'handlers names operation(s) the bundle does not declare: books.nope',
    ])
      assert.equal(occurrences(r.stderr, part), 1, `${part} once in:\n${r.stderr}`);
    assert.doesNotMatch(r.stderr, stackFrame, r.stderr);
    assert.doesNotMatch(r.stderr, /errors: \[|detail:/, 'the text is not repeated by the fields');
  });

  it('the loop reports a settings typo, a policy violation and a handler error in one message', async () => {
    // v1, the bundle's only version, deprecated with 31 days' notice and nothing to move to.
    const r = await node([app], {
      SETTINGS: JSON.stringify({
        versoins: {},
        versions: { v1: { deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: '2026-02-01T00:00:00Z' } },
      }),
      HANDLERS: JSON.stringify(['books.list']),
    });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /versionary\/loop cannot start: INVALID_CONFIG: The loop's options have 4 error\(s\)/);
    for (const part of [
      'unknown key "versoins"; did you mean "versions"?',
      'v1 gives 31 days (2026-01-01 → 2026-02-01)',
      'replacement-exists: ',
      'handlers lacks a function for operation(s): books.get',
    ])
      assert.equal(occurrences(r.stderr, part), 1, `${part} once in:\n${r.stderr}`);
    assert.doesNotMatch(r.stderr, stackFrame, r.stderr);
  });

  it('the service reports a config typo and a policy violation in one start, in one message', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'versionary-start-errors-'));
    try {
      const config = join(tmp, 'config.json');
      writeFileSync(
        config,
        JSON.stringify({
          rateLimt: {},
          versions: {
            v1: { deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: '2026-02-01T00:00:00Z' },
            v2: {},
          },
        }),
      );
      const failure = await spawnService({
        env: { DATABASE_URL: 'sqlite::memory:', VERSIONARY_CONFIG: config },
        timeoutMs: 30_000,
      }).then(
        async (s) => {
          await s.stop();
          return undefined;
        },
        (error: Error) => error.message,
      );
      assert.ok(failure, 'the service must not start');
      const lines = failure.split('\n').filter((line) => line.startsWith('versionary: cannot start:'));
      assert.equal(lines.length, 1, failure);
      assert.match(failure, /The configuration has 2 error\(s\)/);
      for (const part of [
        'unknown key "rateLimt"; did you mean "rateLimit"?',
        'v1 gives 31 days (2026-01-01 → 2026-02-01)',
      ])
        assert.equal(occurrences(failure, part), 1, `${part} once in:\n${failure}`);
      assert.doesNotMatch(failure, /\n {4}at /, failure);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('the service logs a failure after listening without its stack', async () => {
    // The config file's own policy is checked before listening (above); what the start stores is
    // checked after: here the default deprecation of v1 (180 days), short for an enterprise audience.
    const tmp = mkdtempSync(join(tmpdir(), 'versionary-start-errors-'));
    try {
      const config = join(tmp, 'config.json');
      writeFileSync(config, JSON.stringify({ audience: 'enterprise' }));
      const r = await node([bin, 'serve', '--config', config, '--port', '0'], { DATABASE_URL: 'sqlite::memory:' });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /^versionary: cannot start: INVALID_CONFIG: /);
      assert.doesNotMatch(r.stdout, /"stack"/, 'the log line carries no stack');
      assert.doesNotMatch(r.stderr + r.stdout, stackFrame);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
