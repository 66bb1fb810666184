// A guide shows one removal date per version: the sunset, when requests start getting 410. The
// later --removed-at date is when the old code is deleted and is named that; the summary line
// counts every section of the guide. When the old documents promise a sunset (x-sunset), the
// timeline quotes that date, the one the rows quote, never one computed from --deprecated-at.
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

// The old version's GET /users promises 2030-01-01 and is gone from the new one.
const sunsetDoc = (withUsers: boolean) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    ...(withUsers
      ? {
          '/users': {
            get: { deprecated: true, 'x-sunset': '2030-01-01', responses: { '200': { description: 'ok' } } },
          },
        }
      : {}),
    '/posts': { get: { responses: { '200': { description: 'ok' } } } },
  },
});

before(() => {
  writeFileSync(join(harness.dir, 'old.json'), JSON.stringify(doc(['active'])));
  writeFileSync(join(harness.dir, 'new.json'), JSON.stringify(doc(['active', 'pending'])));
  writeFileSync(join(harness.dir, 'dated-old.json'), JSON.stringify(sunsetDoc(true)));
  writeFileSync(join(harness.dir, 'dated-new.json'), JSON.stringify(sunsetDoc(false)));
});
const datedGuide = (extra: string[]) =>
  harness.cli(['guide', 'dated-old.json', 'dated-new.json', '--from', 'v1', '--to', 'v2', ...extra]);
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

  for (const format of ['markdown', 'html', 'json'] as const) {
    it(`${format}: the timeline quotes the documents' x-sunset, the date the rows quote, not deprecated-at + 6 months`, async () => {
      const run = await datedGuide(['--format', format, '--deprecated-at', '2026-01-01']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /sunset date 2030-01-01 \(x-sunset on the operation\)/, 'the row quotes the promise');
      const dates = new Set(run.stdout.match(/\d{4}-\d{2}-\d{2}/g));
      assert.deepEqual([...dates].sort(), ['2026-01-01', '2030-01-01'], 'deprecation and the one sunset, nothing else');
      if (format === 'json') assert.equal(JSON.parse(run.stdout).timeline.sunsetAt, '2030-01-01T00:00:00Z');
    });
  }

  it('a --sunset-at equal to the promised date is accepted; one that differs is refused (exit 2) naming both', async () => {
    const same = await datedGuide(['--deprecated-at', '2026-01-01', '--sunset-at', '2030-01-01T00:00:00Z']);
    assert.equal(same.code, 0, same.stderr);
    const other = await datedGuide(['--deprecated-at', '2026-01-01', '--sunset-at', '2026-09-01']);
    assert.equal(other.code, 2);
    assert.equal(other.stdout, '');
    assert.match(
      other.stderr,
      /--sunset-at 2026-09-01 disagrees with the sunset the old documents promise: 2030-01-01/,
    );
    assert.match(other.stderr, /x-sunset on the operation of GET \/users/);
  });
});
