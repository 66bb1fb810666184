import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY_MS } from '../lifecycle/index.ts';
import { buildChangelog, sunsetCountdown, toApiCatalog, toBrownoutEntries } from './index.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

test('the countdown rounds partial days up and turns urgent under 30 days', () => {
  const now = day('2026-01-01');
  assert.deepEqual(sunsetCountdown({ now, sunsetAt: now + 31 * DAY_MS }), { daysLeft: 31, level: 'calm' });
  assert.deepEqual(sunsetCountdown({ now, sunsetAt: now + 30 * DAY_MS }), { daysLeft: 30, level: 'calm' });
  assert.deepEqual(sunsetCountdown({ now, sunsetAt: now + 29 * DAY_MS + 1 }), { daysLeft: 30, level: 'calm' });
  assert.deepEqual(sunsetCountdown({ now, sunsetAt: now + 29 * DAY_MS }), { daysLeft: 29, level: 'urgent' });
  assert.deepEqual(sunsetCountdown({ now, sunsetAt: now + 1 }), { daysLeft: 1, level: 'urgent' });
  assert.deepEqual(sunsetCountdown({ now, sunsetAt: now }), { daysLeft: 0, level: 'past' });
});

test('the changelog holds past events newest first and lists sunsets to come apart', () => {
  const { entries, upcoming } = buildChangelog({
    now: day('2026-06-20'),
    versions: [
      {
        name: 'v1',
        releasedAt: day('2025-01-15'),
        changes: [],
        deprecatedAt: day('2026-01-15'),
        sunsetAt: day('2026-07-14'),
        replacement: 'v2',
        guideUrl: '/g/v1',
      },
      { name: 'v2', releasedAt: day('2026-03-02'), changes: ['Users gain email.', 'Lists become objects.'] },
    ],
    endpoints: [
      { version: 'v2', method: 'GET', path: '/users', deprecatedAt: day('2026-02-01'), sunsetAt: day('2026-05-01') },
    ],
  });
  assert.deepEqual(
    entries.map((e) => [e.kind, e.version, e.endpoint ?? null]),
    [
      ['reminder', 'v1', null],
      ['removed', 'v2', 'GET /users'],
      ['reminder', 'v2', 'GET /users'],
      ['released', 'v2', null],
      ['endpoint_deprecated', 'v2', 'GET /users'],
      ['deprecated', 'v1', null],
      ['released', 'v1', null],
    ],
  );
  assert.deepEqual(entries.find((e) => e.kind === 'released' && e.version === 'v2')!.changes, [
    'Users gain email.',
    'Lists become objects.',
  ]);
  assert.equal(entries.find((e) => e.kind === 'deprecated')!.guideUrl, '/g/v1');
  assert.match(entries.find((e) => e.kind === 'deprecated')!.summary, /2026-07-14.*Move to v2/);
  assert.equal(entries.find((e) => e.kind === 'reminder' && e.version === 'v1')!.at, day('2026-06-14'));
  assert.deepEqual(upcoming, [{ version: 'v1', sunsetAt: day('2026-07-14'), guideUrl: '/g/v1', replacement: 'v2' }]);
  assert.equal(new Set(entries.map((e) => e.id)).size, entries.length, 'ids are unique');
});

test('the changelog carries no future event, and merges events known elsewhere', () => {
  const { entries } = buildChangelog({
    now: day('2026-01-01'),
    versions: [
      { name: 'v1', releasedAt: day('2025-01-01'), changes: [] },
      { name: 'v2', releasedAt: day('2026-03-01'), changes: ['x'] },
    ],
    extra: [
      {
        id: 'v1:brownout:2025-12-01',
        at: day('2025-12-01'),
        kind: 'brownout',
        version: 'v1',
        title: 'v1 brownout',
        summary: 'One hour of 410s.',
        changes: [],
      },
    ],
  });
  assert.deepEqual(
    entries.map((e) => e.kind),
    ['brownout', 'released'],
  );
});

test('the API catalog is an RFC 9727 linkset: an index of items, then one context per version', () => {
  const catalog = toApiCatalog({
    catalogUrl: '/.well-known/api-catalog',
    versions: [
      {
        name: 'v1',
        base: '/api/v1',
        openapiUrl: '/api/v1/openapi.json',
        docsUrl: '/docs/v1',
        statusUrl: '/api/versions',
        status: 'deprecated',
        guideUrl: '/g/v1',
        sunsetAt: '2026-07-14T00:00:00Z',
      },
      {
        name: 'v2',
        base: '/api/v2',
        openapiUrl: '/api/v2/openapi.json',
        docsUrl: '/docs/v2',
        statusUrl: '/api/versions',
        status: 'not_deprecated',
      },
    ],
  });
  assert.deepEqual(catalog.linkset[0], {
    anchor: '/.well-known/api-catalog',
    item: [
      { href: '/api/v1', title: 'API v1' },
      { href: '/api/v2', title: 'API v2' },
    ],
  });
  const [, v1, v2] = catalog.linkset;
  assert.deepEqual(Object.keys(v1!).sort(), [
    'anchor',
    'deprecation',
    'service-desc',
    'service-doc',
    'status',
    'sunset',
  ]);
  assert.deepEqual(Object.keys(v2!).sort(), ['anchor', 'service-desc', 'service-doc', 'status']);
});

test('brownouts become changelog entries once started; rehearsals and future windows stay out', () => {
  const start = Date.UTC(2026, 5, 1);
  const brownouts = [
    { id: 'a', version: 'v1', startsAt: start, endsAt: start + 3_600_000 },
    { id: 'b', version: 'v1', endpoint: 'GET /users', startsAt: start + 86_400_000, endsAt: start + 90_000_000 },
    { id: 'c', version: 'v1', startsAt: start, endsAt: start + 60_000, clientId: 'cl_1' },
  ];
  const entries = toBrownoutEntries(brownouts, start + 60_000);
  assert.deepEqual(
    entries.map((e) => [e.id, e.kind, e.at]),
    [['brownout-a', 'brownout', start]],
  );
  assert.match(entries[0]!.summary, /2026-06-01T00:00:00.000Z to 2026-06-01T01:00:00.000Z/);
  const log = buildChangelog({
    versions: [{ name: 'v1', releasedAt: 0, changes: [] }],
    extra: entries,
    now: start + 60_000,
  });
  assert.ok(log.entries.some((e) => e.kind === 'brownout'));
});

test('a deprecated field or query parameter is an entry dated at its deprecation, naming its replacement', () => {
  const base = { version: 'v2', deprecatedAt: day('2026-09-01'), sunsetAt: day('2027-09-01') };
  const { entries, upcoming } = buildChangelog({
    now: day('2026-10-01'),
    versions: [{ name: 'v2', releasedAt: day('2026-03-02'), changes: [] }],
    elements: [
      {
        ...base,
        kind: 'field',
        element: 'User.nickname',
        schema: 'User',
        field: 'nickname',
        replacement: 'displayName',
        guideUrl: '/g/nickname',
      },
      { ...base, kind: 'parameter', element: 'GET /users?order', method: 'GET', path: '/users', parameter: 'order' },
      // Not yet deprecated: a feed carries no future event.
      {
        ...base,
        kind: 'field',
        element: 'User.status',
        schema: 'User',
        field: 'status',
        deprecatedAt: day('2027-01-01'),
      },
    ],
  });
  const field = entries.find((e) => e.element === 'User.nickname')!;
  assert.deepEqual(field, {
    id: 'v2:User.nickname:deprecated:2026-09-01',
    at: day('2026-09-01'),
    kind: 'element_deprecated',
    version: 'v2',
    element: 'User.nickname',
    title: 'User.nickname deprecated in v2',
    summary: 'User.nickname deprecated in v2: use User.displayName; sunset 2027-09-01.',
    changes: [],
    guideUrl: '/g/nickname',
  });
  const parameter = entries.find((e) => e.element === 'GET /users?order')!;
  assert.equal(parameter.endpoint, 'GET /users');
  assert.equal(parameter.summary, 'GET /users?order deprecated in v2; sunset 2027-09-01.');
  assert.equal(
    entries.find((e) => e.element === 'User.status'),
    undefined,
  );
  assert.deepEqual(
    entries.map((e) => e.kind),
    ['element_deprecated', 'element_deprecated', 'released'],
  );
  // The version keeps the element after its sunset: no removal is announced for it.
  assert.deepEqual(upcoming, []);
});
