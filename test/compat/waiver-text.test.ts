// A waivers file is read by `versionary diff`: a reason with control characters would print in
// the report and in CI logs, so it is refused (exit 2) naming the waiver, as a malformed file is.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCliHarness } from '../support/cli-harness.ts';

const harness = createCliHarness('versionary-waiver-text-');
const ok = { '200': { description: 'ok' } };
const doc = (paths: string[]) => ({
  openapi: '3.1.0',
  info: { title: 't', version: 'v2' },
  paths: Object.fromEntries(paths.map((p) => [p, { get: { responses: ok } }])),
});

before(() => {
  writeFileSync(join(harness.dir, 'base.json'), JSON.stringify(doc(['/users', '/posts'])));
  writeFileSync(join(harness.dir, 'head.json'), JSON.stringify(doc(['/users'])));
});
after(() => harness.cleanup());

describe('versionary diff --waivers', () => {
  it('refuses a reason with control characters or a lone surrogate, naming the waiver', async () => {
    for (const reason of ['ok\r\u001b[2KUNAFFECTED', 'two\nlines', 'a\ud800b']) {
      const waivers = {
        waivers: [
          { fingerprint: '0123456789abcdef', reason: 'fine' },
          { fingerprint: 'fedcba9876543210', reason },
        ],
      };
      writeFileSync(join(harness.dir, 'w.json'), JSON.stringify(waivers));
      const run = await harness.cli(['diff', 'base.json', 'head.json', '--waivers', 'w.json']);
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stderr, /w\.json: waivers\[1\]\.reason must be one line of text/);
      assert.equal(run.stdout, '');
    }
  });
});
