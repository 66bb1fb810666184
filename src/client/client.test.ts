import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createVersionaryClient,
  describeNotice,
  parseLifecycleHeaders,
  parseWarning,
  SunsetApproachingError,
  type DeprecationNotice,
} from './index.ts';

// Header variants as real servers send them: this service in both styles, RFC 9745 / 8594 examples,
// and the looser forms seen in the wild.
const variants: Array<{
  name: string;
  headers: Record<string, string>;
  deprecatedAt?: string;
  sunsetAt?: string;
  guide?: string;
  successor?: string;
}> = [
  {
    name: 'service, iso style',
    headers: {
      deprecation: '2026-01-15T12:00:00.000Z',
      sunset: '2026-07-15T12:00:00.000Z',
      link: '</api/versions/v1/migration-guide>; rel="deprecation", </api/v2/openapi.json>; rel="successor-version"',
    },
    deprecatedAt: '2026-01-15T12:00:00.000Z',
    sunsetAt: '2026-07-15T12:00:00.000Z',
    guide: 'https://api.example/api/versions/v1/migration-guide',
    successor: 'https://api.example/api/v2/openapi.json',
  },
  {
    name: 'service, rfc style (RFC 9745 structured date, RFC 8594 HTTP-date)',
    headers: {
      deprecation: '@1768478400',
      sunset: 'Wed, 15 Jul 2026 12:00:00 GMT',
      link: '</api/versions/v1/migration-guide>; rel="deprecation", </api/versions>; rel="sunset"',
    },
    deprecatedAt: '2026-01-15T12:00:00.000Z',
    sunsetAt: '2026-07-15T12:00:00.000Z',
    guide: 'https://api.example/api/versions/v1/migration-guide',
  },
  {
    name: 'RFC 9745 example',
    headers: {
      deprecation: '@1688169599',
      link: '<https://developer.example.com/deprecation>; rel="deprecation"; type="text/html"',
    },
    deprecatedAt: '2023-06-30T23:59:59.000Z',
    guide: 'https://developer.example.com/deprecation',
  },
  {
    name: 'draft boolean form, no dates',
    headers: { deprecation: 'true', sunset: 'Sat, 31 Dec 2026 23:59:59 GMT' },
    sunsetAt: '2026-12-31T23:59:59.000Z',
  },
  {
    name: 'date-only ISO, unquoted rel',
    headers: { deprecation: '2026-06-01', sunset: '2027-06-30', link: '<https://x.example/guide>;rel=deprecation' },
    deprecatedAt: '2026-06-01T00:00:00.000Z',
    sunsetAt: '2027-06-30T00:00:00.000Z',
    guide: 'https://x.example/guide',
  },
  { name: 'unreadable dates are not guessed', headers: { deprecation: 'yesterday', sunset: 'soon' } },
];

for (const v of variants) {
  test(`parses lifecycle headers: ${v.name}`, () => {
    const parsed = parseLifecycleHeaders(new Headers(v.headers), 'https://api.example/api/v1/users');
    assert.equal(parsed.deprecated, true);
    assert.equal(parsed.deprecatedAt?.toISOString(), v.deprecatedAt);
    assert.equal(parsed.sunsetAt?.toISOString(), v.sunsetAt);
    assert.equal(parsed.guideUrl, v.guide);
    assert.equal(parsed.successorUrl, v.successor);
  });
}

test('a response without lifecycle headers is not deprecated', () => {
  const parsed = parseLifecycleHeaders(new Headers({ link: '</api/v2/users?cursor=x>; rel="next"' }));
  assert.equal(parsed.deprecated, false);
  assert.equal(parsed.guideUrl, undefined);
});

test('Warning: only code 299 counts, and its quoted text is unescaped', () => {
  assert.equal(
    parseWarning('299 - "API version v1 is deprecated; see \\"guide\\""'),
    'API version v1 is deprecated; see "guide"',
  );
  assert.equal(parseWarning('199 - "miscellaneous"'), undefined);
  assert.equal(parseWarning('110 - "stale", 299 api.example "gone soon"'), 'gone soon');
});

const respond = (headers: Record<string, string>) => async () => new Response('[]', { status: 200, headers });

test('each deprecated version or endpoint is reported once per process, with parsed dates and the guide', async () => {
  const notices: DeprecationNotice[] = [];
  const version = {
    deprecation: '@1768478400',
    sunset: 'Wed, 15 Jul 2026 12:00:00 GMT',
    link: '</g/v1>; rel="deprecation"',
  };
  const endpoint = {
    deprecation: '2026-03-01T00:00:00Z',
    sunset: '2026-05-01T00:00:00Z',
    link: '</g/reports>; rel="deprecation"',
  };
  const headersFor = (url: string) => (url.includes('/reports') ? endpoint : version);
  const client = createVersionaryClient({
    baseUrl: 'https://once.example/api',
    version: 1,
    now: () => Date.UTC(2026, 0, 20),
    onDeprecation: (n) => notices.push(n),
    fetch: async (input) => respond(headersFor(String(input)))(),
  });
  await client.fetch('/users');
  await client.fetch('/users/7');
  await client.fetch('/reports');
  await client.fetch('/reports');
  // A second client in the same process does not report them again.
  const other = createVersionaryClient({
    baseUrl: 'https://once.example/api',
    version: 1,
    onDeprecation: (n) => notices.push(n),
    fetch: async () => respond(version)(),
  });
  await other.fetch('/posts');
  assert.equal(notices.length, 2);
  assert.equal(notices[0]!.endpoint, 'GET https://once.example/api/v1/users');
  assert.equal(notices[0]!.version, 'v1');
  assert.equal(notices[0]!.sunsetAt?.toISOString(), '2026-07-15T12:00:00.000Z');
  assert.equal(notices[0]!.daysLeft, 176);
  assert.equal(notices[0]!.guideUrl, 'https://once.example/g/v1');
  assert.equal(notices[1]!.endpoint, 'GET https://once.example/api/v1/reports');
  assert.equal(notices[1]!.guideUrl, 'https://once.example/g/reports');
});

test('the default handler logs one clear warning', async (t) => {
  const warn = t.mock.method(console, 'warn', () => {});
  const client = createVersionaryClient({
    baseUrl: 'https://default.example/api',
    version: 'v1',
    now: () => Date.UTC(2026, 0, 20),
    fetch: async () =>
      respond({
        deprecation: '2026-01-15T00:00:00Z',
        sunset: '2026-07-15T00:00:00Z',
        link: '</guide>; rel="deprecation", </api/v2>; rel="successor-version"',
      })(),
  });
  await client.fetch('/users');
  await client.fetch('/users');
  assert.equal(warn.mock.callCount(), 1);
  assert.equal(
    warn.mock.calls[0]!.arguments[0],
    'versionary: GET https://default.example/api/v1/users uses deprecated API version v1 (deprecated 2026-01-15, sunset 2026-07-15, in 176 days). ' +
      'Migration guide: https://default.example/guide. Successor: https://default.example/api/v2.',
  );
});

test('failWithinDays turns the warning into an error once the sunset is that close, on every call', async () => {
  const headers = { deprecation: '2026-01-15T00:00:00Z', sunset: '2026-02-01T00:00:00Z' };
  const make = (failWithinDays: number, host: string) =>
    createVersionaryClient({
      baseUrl: `https://${host}.example/api`,
      version: 1,
      failWithinDays,
      now: () => Date.UTC(2026, 0, 20),
      onDeprecation: () => {},
      fetch: async () => respond(headers)(),
    });
  await assert.doesNotReject(make(10, 'far').fetch('/users'));
  const near = make(30, 'near');
  await assert.rejects(
    near.fetch('/users'),
    (error: unknown) =>
      error instanceof SunsetApproachingError && error.notice.daysLeft === 12 && /within 30 day/.test(error.message),
  );
  await assert.rejects(near.fetch('/users'), SunsetApproachingError);
});

test('accept versioning sends the vendor media type and keeps the path unversioned', async () => {
  const seen: Array<{ url: string; accept: string | null }> = [];
  const client = createVersionaryClient({
    baseUrl: 'https://accept.example/api/',
    version: 2,
    versioning: 'accept',
    vendor: 'acme',
    fetch: async (input, init) => {
      seen.push({ url: String(input), accept: new Headers(init?.headers).get('accept') });
      return new Response('{}');
    },
  });
  await client.fetch('/books');
  assert.deepEqual(seen, [{ url: 'https://accept.example/api/books', accept: 'application/vnd.acme+json; version=2' }]);
});

test('bad client options fail at once with a clear message', () => {
  assert.throws(() => createVersionaryClient({ version: 'latest' }), /version must be a positive integer or "v<n>"/);
  assert.throws(() => createVersionaryClient({ version: 1, versioning: 'accept' }), /vendor is required/);
  assert.throws(() => createVersionaryClient({ version: 1, failWithinDays: -1 }), /failWithinDays/);
});

test('describeNotice says when no sunset is announced', () => {
  const text = describeNotice({
    version: 'v3',
    endpoint: 'GET https://x.example/api/v3/a',
    deprecatedAt: undefined,
    sunsetAt: undefined,
    daysLeft: undefined,
    guideUrl: undefined,
    successorUrl: undefined,
    warning: undefined,
    status: 200,
  });
  assert.equal(
    text,
    'versionary: GET https://x.example/api/v3/a uses deprecated API version v3 (no sunset announced).',
  );
});

test('newer versions in api-supported-versions are reported once per origin, when asked', async () => {
  const seen: Array<{ version: string; newer: string[]; origin: string }> = [];
  const make = (version: number) =>
    createVersionaryClient({
      baseUrl: 'https://newer.example/api',
      version,
      onNewVersion: (n) => seen.push(n),
      onDeprecation: () => {},
      fetch: async () =>
        new Response('{}', { headers: { 'api-supported-versions': 'v2, v4, v3', 'api-deprecated-versions': 'v1' } }),
    });
  await make(1).fetch('/a');
  await make(1).fetch('/b');
  await make(4).fetch('/a');
  assert.deepEqual(seen, [{ version: 'v1', newer: ['v2', 'v3', 'v4'], origin: 'https://newer.example' }]);
});

test('a titled rel="deprecation" link per deprecated element used: each named in the notice', () => {
  const headers = new Headers({
    deprecation: '2026-01-15T00:00:00.000Z',
    sunset: '2026-08-03T00:00:00.000Z',
    link:
      '</api/versions/v1/migration-guide>; rel="deprecation", </guide/nickname>; rel="deprecation"; title="User.nickname", ' +
      '</guide/cursor>; rel="deprecation"; title="GET /users?cursor"',
  });
  const parsed = parseLifecycleHeaders(headers, 'https://api.example/api/v2/users');
  assert.deepEqual(parsed.elements, [
    { name: 'User.nickname', guideUrl: 'https://api.example/guide/nickname' },
    { name: 'GET /users?cursor', guideUrl: 'https://api.example/guide/cursor' },
  ]);
  assert.equal(parsed.guideUrl, 'https://api.example/api/versions/v1/migration-guide', 'the first guide stays the one');
  const notice: DeprecationNotice = {
    version: 'v2',
    endpoint: 'GET https://api.example/api/v2/users',
    deprecatedAt: parsed.deprecatedAt,
    sunsetAt: parsed.sunsetAt,
    daysLeft: 10,
    guideUrl: parsed.guideUrl,
    successorUrl: undefined,
    warning: undefined,
    status: 200,
    elements: parsed.elements.map((e) => e.name),
  };
  assert.match(describeNotice(notice), /uses deprecated User\.nickname, GET \/users\?cursor of API version v2/);
  assert.deepEqual(parseLifecycleHeaders(new Headers({ link: '</g>; rel="deprecation"' })).elements, []);
});
