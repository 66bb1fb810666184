import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callUses, describeManifestNotice, usedEntries } from './manifest-check.ts';
import { ManifestUnreadableError, parseDeprecationManifest } from './manifest.ts';
import { parseLifecycleHeaders } from './parse-headers.ts';

const url = 'https://api.example/api/deprecations';
const body = {
  deprecations: [
    {
      kind: 'version',
      name: 'v1',
      version: 'v1',
      deprecation: '2026-06-01T00:00:00.000Z',
      sunset: '2026-12-01T00:00:00.000Z',
      replacement: 'v2',
      guide: '/api/versions/v1/migration-guide',
    },
    {
      kind: 'endpoint',
      name: 'DELETE /users/{id}',
      version: 'v2',
      method: 'delete',
      path: '/users/{id}',
      deprecation: '2026-08-01T00:00:00.000Z',
      sunset: 'soon',
      replacement: null,
      guide: null,
    },
    {
      kind: 'parameter',
      name: 'GET /users/{id}?fields',
      version: 'v2',
      method: 'GET',
      path: '/users/{id}',
      member: 'fields',
      deprecation: '2026-07-01T00:00:00.000Z',
      sunset: '2027-07-01T00:00:00.000Z',
    },
    {
      kind: 'field',
      name: 'User.nickname',
      version: 'v2',
      member: 'nickname',
      sunset: '2027-01-01T00:00:00.000Z',
      replacement: 'User.displayName',
    },
    { kind: 'header', name: 'X-Old', version: 'v2' },
    { kind: 'field', version: 'v2' },
    'not an entry',
  ],
};

test('a manifest is read with guides resolved, unknown kinds and nameless entries skipped, unreadable dates left undefined', () => {
  const entries = parseDeprecationManifest(body, url);
  assert.deepEqual(
    entries.map((e) => e.name),
    ['v1', 'DELETE /users/{id}', 'GET /users/{id}?fields', 'User.nickname'],
  );
  assert.equal(entries[0]!.guideUrl, 'https://api.example/api/versions/v1/migration-guide');
  assert.equal(entries[0]!.sunsetAt?.toISOString(), '2026-12-01T00:00:00.000Z');
  assert.equal(entries[1]!.method, 'DELETE');
  assert.equal(entries[1]!.sunsetAt, undefined, 'never guessed');
  assert.equal(entries[1]!.replacement, undefined);
});

test('no check passes on silence: a body that is not a manifest is an error', () => {
  for (const bad of [null, 'text', [], {}, { deprecations: {} }])
    assert.throws(() => parseDeprecationManifest(bad, url), ManifestUnreadableError);
  assert.deepEqual(parseDeprecationManifest({ deprecations: [] }, url), [], 'an empty list is a real answer');
});

test('what the program uses: its version, what it declares (by name or bare member), what it calls', () => {
  const entries = parseDeprecationManifest(body, url);
  const called = { method: 'GET', path: '/users/7', query: ['fields'] };
  assert.equal(callUses(called, entries[2]!), true);
  assert.equal(callUses({ ...called, query: [] }, entries[2]!), false, 'the parameter was not sent');
  assert.equal(callUses({ method: 'DELETE', path: '/users/7/posts', query: [] }, entries[1]!), false);
  assert.equal(callUses({ method: 'DELETE', path: '/users/7', query: [] }, entries[1]!), true);
  const v2 = usedEntries(entries, {
    version: 'v2',
    uses: new Set(['nickname']),
    calls: [called],
    now: Date.parse('2026-12-01'),
  });
  assert.deepEqual(
    v2.map((n) => [n.name, n.because]),
    [
      ['GET /users/{id}?fields', 'called'],
      ['User.nickname', 'declared'],
    ],
  );
  assert.equal(v2[1]!.daysLeft, 31);
  const v1 = usedEntries(entries, { version: 'v1', uses: new Set(), calls: [], now: Date.parse('2026-12-02') });
  assert.match(
    describeManifestNotice(v1[0]!),
    /deprecated API version v1 \(deprecated 2026-06-01, sunset 2026-12-01, already past\)\. Use v2 instead\. Migration guide: https:\/\/api\.example/,
  );
});

test('the manifest link is told apart from the migration guide by its type, wherever it stands', () => {
  const link =
    '</api/deprecations>; rel="deprecation"; type="application/deprecations+json", </guide>; rel="deprecation"; type="text/html"';
  const parsed = parseLifecycleHeaders(
    new Headers({ deprecation: '@1780272000', link }),
    'https://api.example/api/v1/users',
  );
  assert.equal(parsed.manifestUrl, 'https://api.example/api/deprecations');
  assert.equal(parsed.guideUrl, 'https://api.example/guide');
  assert.equal(parseLifecycleHeaders(new Headers({ link: '</guide>; rel="deprecation"' })).manifestUrl, undefined);
});
