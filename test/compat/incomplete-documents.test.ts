// A file with an `openapi` field but no `info` or `paths` is a fragment: diffing it used to report
// every operation of the other side as a breaking removal (exit 1), and lint called it clean.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCliHarness } from '../support/cli-harness.ts';

const harness = createCliHarness('versionary-incomplete-');
const complete = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: { '/users': { get: { responses: { '200': { description: 'ok' } } } } },
};

before(() => {
  const write = (name: string, doc: unknown) => writeFileSync(join(harness.dir, name), JSON.stringify(doc));
  write('bare.json', { openapi: '3.0.0' });
  write('no-info.json', { openapi: '3.0.3', paths: complete.paths });
  write('no-paths.json', { openapi: '3.0.3', info: complete.info });
  write('complete.json', complete);
  write('webhooks-only.json', { openapi: '3.1.0', info: complete.info, webhooks: {} });
});
after(harness.cleanup);

describe('incomplete OpenAPI documents', () => {
  for (const [file, missing] of [
    ['bare.json', /without "info" and "paths"/],
    ['no-info.json', /without "info"/],
    ['no-paths.json', /without "paths"/],
  ] as const) {
    it(`${file}: exit 2 in diff (either side), guide and lint, naming what is missing`, async () => {
      const runs = [
        await harness.cli(['diff', 'complete.json', file]),
        await harness.cli(['diff', file, 'complete.json']),
        await harness.cli(['guide', 'complete.json', file, '--from', 'v1', '--to', 'v2']),
        await harness.cli(['lint', file]),
      ];
      for (const run of runs) {
        assert.equal(run.code, 2, run.stdout + run.stderr);
        assert.equal(run.stdout, '');
        assert.match(run.stderr, /SPEC_INVALID: .*an incomplete OpenAPI document/);
        assert.match(run.stderr, missing);
      }
    });
  }

  it('a complete document and a 3.1 document with only webhooks still run', async () => {
    assert.equal((await harness.cli(['diff', 'complete.json', 'complete.json'])).code, 0);
    assert.equal((await harness.cli(['lint', 'webhooks-only.json'])).code, 0);
  });
});
