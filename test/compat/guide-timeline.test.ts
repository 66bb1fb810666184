// A guide shows one removal date per version: the sunset, when requests start getting 410. The
// later --removed-at date is when the old code is deleted and is named that; the summary line
// counts every section of the guide.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCliHarness } from '../support/cli-harness.ts';

const harness = createCliHarness('versionary-timeline-');
const doc = (status: string[]) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/users': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { status: { type: 'string', enum: status } },
                },
              },
            },
          },
        },
      },
    },
  },
});

before(() => {
  writeFileSync(join(harness.dir, 'old.json'), JSON.stringify(doc(['active'])));
  writeFileSync(join(harness.dir, 'new.json'), JSON.stringify(doc(['active', 'pending'])));
});
after(harness.cleanup);

describe('versionary guide timeline and summary', () => {
  for (const format of ['markdown', 'html'] as const) {
    it(`${format}: one removal date (the sunset, with 410), the later date named as the code's deletion`, async () => {
      const out = `guide.${format}`;
      const run = await harness.cli([
        'guide',
        'old.json',
        'new.json',
        '--from',
        'v1',
        '--to',
        'v2',
        '--format',
        format,
        '--deprecated-at',
        '2026-01-01',
        '--out',
        out,
      ]);
      assert.equal(run.code, 0, run.stderr);
      const text = readFileSync(join(harness.dir, out), 'utf8');
      assert.match(text, /Sunset: removed, requests answered 410 Gone/);
      assert.match(text, /Old code deleted \(no change for clients\)/);
      assert.doesNotMatch(text, /\|\s*Removed\s*\||<td>Removed<\/td>/, 'no second "Removed" date');
      assert.ok(text.includes('2026-06-30'), 'the sunset, deprecated-at + 180 days');
    });
  }

  it('the summary line counts the changes to check too', async () => {
    const run = await harness.cli(['guide', 'old.json', 'new.json', '--from', 'v1', '--to', 'v2', '--out', 'M.md']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, 'Wrote M.md (0 breaking, 1 to check, 0 additive).\n');
  });
});
