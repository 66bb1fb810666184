// `versionary diff` as the gate without a usage source: waivers, the CI formats, and a usage
// source that cannot be read (exit 2, never a pass); `versionary approvals` on the database.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCliHarness } from '../support/cli-harness.ts';

const harness = createCliHarness('versionary-gate-cli-');
const ok = { '200': { description: 'ok' } };
const doc = (paths: string[]) => ({
  openapi: '3.1.0',
  info: { title: 't', version: 'v2' },
  paths: Object.fromEntries(paths.map((p) => [p, { get: { responses: ok } }])),
});
let junk: ReturnType<typeof createServer>;
let junkUrl = '';

before(async () => {
  writeFileSync(join(harness.dir, 'base.json'), JSON.stringify(doc(['/api/v2/users', '/api/v2/posts'])));
  writeFileSync(join(harness.dir, 'head.json'), JSON.stringify(doc(['/api/v2/users'])));
  // A proxy in front of the service that answers HTML: the gate must refuse to judge.
  junk = createServer((_req, res) => res.end('<html>maintenance</html>'));
  await new Promise<void>((r) => junk.listen(0, '127.0.0.1', r));
  junkUrl = `http://127.0.0.1:${(junk.address() as AddressInfo).port}`;
});
after(() => {
  junk.close();
  harness.cleanup();
});

async function fingerprint(): Promise<string> {
  const run = await harness.cli(['diff', 'base.json', 'head.json', '--format', 'json', '--waivers', 'none.json']);
  return JSON.parse(run.stdout).changes[0].fingerprint;
}

describe('versionary diff with waivers and CI formats', () => {
  before(() => writeFileSync(join(harness.dir, 'none.json'), JSON.stringify({ waivers: [] })));

  it('a waiver accepts a known break until it expires', async () => {
    const fp = await fingerprint();
    writeFileSync(
      join(harness.dir, 'w.yaml'),
      `waivers:\n  - fingerprint: "${fp}"\n    reason: posts moved\n    expires: 2026-02-01\n`,
    );
    const waived = await harness.cli(['diff', 'base.json', 'head.json', '--waivers', 'w.yaml']);
    assert.equal(waived.code, 0, waived.stdout + waived.stderr);
    assert.match(waived.stdout, /^APPROVED .*endpoint-removed/m);
    assert.match(waived.stdout, /waived until 2026-02-01T00:00:00.000Z: posts moved/);
    const later = await harness.cli(['diff', 'base.json', 'head.json', '--waivers', 'w.yaml', '--now', '2026-03-01']);
    assert.equal(later.code, 1, 'an expired waiver fails again');
    assert.match(later.stdout, /^BROKEN .*endpoint-removed/m);
    assert.match(later.stdout, /expired waiver/);
    const plain = await harness.cli(['diff', 'base.json', 'head.json']);
    assert.equal(plain.code, 1);
    assert.match(plain.stdout, /^BREAKING/m, 'without the gate flags, diff reports as before');
  });

  it('writes markdown with folded sections, github commands and SARIF 2.1.0 with the fingerprint', async () => {
    const fp = await fingerprint();
    writeFileSync(join(harness.dir, 'w.json'), JSON.stringify({ waivers: [{ fingerprint: fp, reason: 'known' }] }));
    const md = await harness.cli(['diff', 'base.json', 'head.json', '--waivers', 'w.json', '--format', 'markdown']);
    assert.equal(md.code, 0);
    assert.match(md.stdout, /<details><summary>Approved \(1\)<\/summary>/);
    const github = await harness.cli(['diff', 'base.json', 'head.json', '--format', 'github']);
    assert.equal(github.code, 1);
    assert.match(
      github.stdout,
      new RegExp(`^::error title=broken breaking change endpoint-removed \\(${fp}\\)::GET /api/v2/posts`, 'm'),
    );
    const sarif = await harness.cli(['diff', 'base.json', 'head.json', '--format', 'sarif', '--waivers', 'w.json']);
    const log = JSON.parse(sarif.stdout);
    assert.equal(log.version, '2.1.0');
    const [result] = log.runs[0].results;
    assert.deepEqual(result.partialFingerprints, { 'versionaryChange/v1': fp });
    assert.equal(result.suppressions[0].status, 'accepted');
    // Without --server, no result carries a usage verdict it did not read: the summary says it once.
    const unjudged = await harness.cli(['diff', 'base.json', 'head.json', '--format', 'sarif']);
    const [plain] = JSON.parse(unjudged.stdout).runs[0].results;
    assert.equal(plain.message.text.split('\n').length, 1, plain.message.text);
    assert.doesNotMatch(unjudged.stdout, /counted as broken|no usage read/);
    assert.doesNotMatch(github.stdout, /counted as broken/);
    assert.match(github.stdout, /No usage source \(--server\): every breaking change/);
  });

  it('refuses bad gate flags and waivers files', async () => {
    writeFileSync(join(harness.dir, 'bad.json'), JSON.stringify({ waivers: [{ fingerprint: 'x', reason: 'r' }] }));
    for (const args of [
      ['--waivers', 'bad.json'],
      ['--waivers', 'missing.json'],
      ['--threshold', '5'],
      ['--server', junkUrl, '--key', 'k', '--threshold', '0'],
      ['--server', junkUrl, '--key', 'k', '--window', '7w'],
      ['--server', junkUrl],
      ['--server', junkUrl, '--key', 'k', '--api-version', ' '],
      ['--server', junkUrl, '--key', 'k', '--window', ''],
      ['--server', junkUrl, '--key', 'k', '--threshold', ''],
      ['--server', junkUrl, '--key', 'k', '--exclude-client', ''],
      ['--server', ''],
    ]) {
      const run = await harness.cli(['diff', 'base.json', 'head.json', ...args]);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}`);
      const blank = args.findIndex((a) => a.trim() === '');
      if (blank > 0) assert.match(run.stderr, new RegExp(`^versionary diff: option ${args[blank - 1]} is empty`));
    }
  });

  it('exits 2 when the usage cannot be read: unreachable, or not JSON', async () => {
    const closed = await harness.cli([
      'diff',
      'base.json',
      'head.json',
      '--server',
      'http://127.0.0.1:9',
      '--key',
      'k',
    ]);
    assert.equal(closed.code, 2);
    assert.match(closed.stderr, /cannot read the usage.*cannot reach/);
    const html = await harness.cli(['diff', 'base.json', 'head.json', '--server', junkUrl, '--key', 'k']);
    assert.equal(html.code, 2);
    assert.match(html.stderr, /did not answer JSON/);
    assert.equal(html.stdout, '');
  });
});

describe('versionary approvals on the database', () => {
  it('approves, lists and revokes, keeping the trail', async () => {
    const approved = await harness.cli([
      'approvals',
      'approve',
      '0123456789abcdef',
      '--reason',
      'agreed',
      '--format',
      'json',
    ]);
    assert.equal(approved.code, 0, approved.stderr);
    const { id, approvedBy } = JSON.parse(approved.stdout);
    assert.equal(approvedBy, 'admin');
    assert.match((await harness.cli(['approvals', 'list'])).stdout, /0123456789abcdef +admin/);
    const revoked = await harness.cli(['approvals', 'revoke', id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /revoked by admin/);
    assert.equal((await harness.cli(['approvals', 'list'])).stdout, 'No approvals.\n');
    assert.match((await harness.cli(['approvals', 'list', '--all'])).stdout, new RegExp(id));
    assert.equal((await harness.cli(['approvals', 'revoke', id])).code, 1, 'revoked once');
    assert.equal((await harness.cli(['approvals', 'approve', 'nothex', '--reason', 'r'])).code, 1);
    assert.equal((await harness.cli(['approvals', 'approve', '0123456789abcdef'])).code, 2, '--reason is required');
  });
});
