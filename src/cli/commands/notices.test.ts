import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CliIo } from '../io.ts';
import { runCli } from '../main.ts';

const dir = mkdtempSync(join(tmpdir(), 'versionary-notices-cli-'));
const env = { DATABASE_URL: `sqlite:${join(dir, 'v.db')}` };
after(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (t) => { out.stdout += t; }, stderr: (t) => { out.stderr += t; }, cwd: dir, now: () => Date.UTC(2026, 0, 1), env };
  const code = await runCli(args, io);
  return { code, ...out };
}

describe('versionary notices', () => {
  it('runs a pass in-process and lists the outbox', async () => {
    const run = await cli(['notices', 'run']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(Object.keys(JSON.parse(run.stdout) as object), ['planned', 'enqueued', 'sent', 'retrying', 'failed']);
    const list = await cli(['notices', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^id\s+client\s+subject\s+kind\s+channel\s+recipient\s+status/);
  });

  it('refuses a bad filter with exit 1 and an unknown action with exit 2', async () => {
    const bad = await cli(['notices', 'list', '--status', 'bogus']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /refused \(400/);
    assert.equal((await cli(['notices', 'send'])).code, 2);
  });
});
