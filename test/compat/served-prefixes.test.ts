// The CLI run on the documents the service serves, whose paths differ by their version segment
// (/api/v1/users against /api/v2/users): with oasdiff's path flags it finds the breaking changes
// the service's own migration guide lists, and without them it says which flags to pass.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { GuideEntry } from '../../src/core/guide/types.ts';
import { fetchServedDocuments } from '../openapi/served-documents.ts';
import { createCliHarness } from '../support/cli-harness.ts';
import { createTestApp } from '../support/test-app.ts';

const harness = createCliHarness('versionary-prefixes-');
const flags = [
  '--strip-prefix-base',
  '/api/v1',
  '--strip-prefix-revision',
  '/api/v2',
  '--prefix-base',
  '/api',
  '--prefix-revision',
  '/api',
];
let serviceGuide: { breaking: GuideEntry[] };

// A served document also describes `?fields=` answers, with a `<Name>Partial` twin of each list
// schema, so each break of a list shows there too: the twin counts as the same change.
const withoutTwins = (entries: readonly GuideEntry[]) =>
  [
    ...new Set(
      entries.map((e) =>
        JSON.stringify({
          ...e,
          endpoint: e.endpoint.replace(/(\w)Partial\b/, '$1'),
          newBehaviour: e.newBehaviour.replace(/(\w)Partial\b/g, '$1'),
        }),
      ),
    ),
  ].sort();

before(async () => {
  const t = await createTestApp({ admin: true });
  const documents = await fetchServedDocuments(t.app);
  for (const file of ['api-v1.openapi.json', 'api-v2.openapi.json'])
    writeFileSync(join(harness.dir, file), JSON.stringify(documents[file]));
  const guide = await t.app.inject({
    url: '/api/versions/v1/migration-guide',
    headers: { accept: 'application/json' },
  });
  assert.equal(guide.statusCode, 200, guide.body);
  serviceGuide = guide.json();
  await t.close();
});
after(harness.cleanup);

describe('versionary diff and guide on the served /api/v1 and /api/v2 documents', () => {
  it("guide with the path flags lists the breaking changes of the service's own migration guide", async () => {
    const run = await harness.cli([
      'guide',
      'api-v1.openapi.json',
      'api-v2.openapi.json',
      '--from',
      'v1',
      '--to',
      'v2',
      '--format',
      'json',
      ...flags,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    const cli = JSON.parse(run.stdout) as { breaking: GuideEntry[] };
    assert.ok(serviceGuide.breaking.length > 0);
    assert.deepEqual(withoutTwins(cli.breaking), withoutTwins(serviceGuide.breaking));
  });

  it('diff with the path flags reports those same breaking changes and no removed endpoint', async () => {
    const run = await harness.cli(['diff', 'api-v1.openapi.json', 'api-v2.openapi.json', '--format', 'json', ...flags]);
    assert.equal(run.code, 1, run.stderr);
    const { changes } = JSON.parse(run.stdout) as { changes: Array<{ id: string; level: string; message: string }> };
    const breaking = changes.filter((c) => c.level === 'breaking');
    const expected = [...new Set(serviceGuide.breaking.map((e) => `${e.rule} ${e.newBehaviour}`))].sort();
    assert.deepEqual(
      [...new Set(breaking.map((c) => `${c.id} ${c.message.replace(/(\w)Partial\b/g, '$1')}`))].sort(),
      expected,
    );
    assert.ok(!changes.some((c) => c.id.startsWith('endpoint-removed')), 'every operation is matched');
  });

  it('diff counts per operation: exactly the breaking changes of the service guide, folded repeats, Markdown escaped once', async () => {
    const json = await harness.cli([
      'diff',
      'api-v1.openapi.json',
      'api-v2.openapi.json',
      '--format',
      'json',
      ...flags,
    ]);
    type Located = { id: string; level: string; message: string; location: Record<string, unknown> };
    const { changes } = JSON.parse(json.stdout) as { changes: Located[] };
    const breaking = changes.filter((c) => c.level === 'breaking');
    // No twin normalisation: UserList and its ?fields= twin UserListPartial are one change to GET /users.
    assert.deepEqual(
      breaking.map((c) => [c.id, `${String(c.location.method)} ${String(c.location.path)}`, c.message]),
      serviceGuide.breaking.map((e) => [e.rule, e.endpoint, e.newBehaviour]),
    );
    assert.equal(breaking.length, 2);
    // One deprecation-header line per operation, listing the status codes and headers.
    const headerLines = changes.filter((c) => c.id === 'response-deprecation-header-removed');
    const operations = new Set(changes.filter((c) => c.id === 'endpoint-reactivated').map((c) => c.message));
    assert.equal(headerLines.length, operations.size);
    for (const c of headerLines) {
      assert.ok(Array.isArray(c.location.statusCodes) && c.location.statusCodes.length > 1, c.message);
      assert.match(c.message, /^The (\d{3}, )+\d{3} responses no longer have the Deprecation, Sunset.* headers/);
    }
    const markdown = await harness.cli([
      'diff',
      'api-v1.openapi.json',
      'api-v2.openapi.json',
      '--format',
      'markdown',
      ...flags,
    ]);
    assert.match(markdown.stdout, /pattern changed from `\^\\s\*\(\?:id\\\|name/);
    assert.doesNotMatch(markdown.stdout, /\\\\s/);
  });

  it('without the flags, diff prints a hint on stderr naming the four flags with the right prefixes', async () => {
    const run = await harness.cli(['diff', 'api-v1.openapi.json', 'api-v2.openapi.json', '--format', 'json']);
    JSON.parse(run.stdout);
    assert.match(
      run.stderr,
      /^hint: every path differs only by its version segment \(\/api\/v1\/… against \/api\/v2\/…\)/,
    );
    assert.ok(run.stderr.includes(`Compare them with ${flags.join(' ')}.`), run.stderr);
  });

  it('guide without the flags refuses (exit 2) with the same hint, and writes no guide of removals', async () => {
    const run = await harness.cli([
      'guide',
      'api-v1.openapi.json',
      'api-v2.openapi.json',
      '--from',
      'v1',
      '--to',
      'v2',
      '--out',
      'MIGRATING.md',
    ]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /every path differs only by its version segment \(\/api\/v1\/… against \/api\/v2\/…\)/);
    assert.ok(run.stderr.includes(`Compare them with ${flags.join(' ')}.`), run.stderr);
    assert.equal(existsSync(join(harness.dir, 'MIGRATING.md')), false);
  });

  it('a prefix that is not a path is a usage error (exit 2)', async () => {
    const run = await harness.cli([
      'diff',
      'api-v1.openapi.json',
      'api-v2.openapi.json',
      '--strip-prefix-base',
      'api/v1',
    ]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--strip-prefix-base must be a path prefix starting with "\/", got "api\/v1"/);
  });
});
