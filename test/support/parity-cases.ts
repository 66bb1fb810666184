/**
 * The parity cases: one list of requests and the answer every data plane must give them (core's
 * `decide` on the served decision table, the service, `versionary gateway`, nginx). A new rule is
 * new rows here. Each case runs at one moment of the scenario below, on an API that has v1 and v2
 * with `GET /users` (the reference service and the gateway's Python upstream both do).
 */

const day = 86_400_000;
/** The scenario's start: every date below is relative to it. */
export const parityEpoch = Date.UTC(2026, 0, 15, 12, 0, 0);
const iso = (at: number) => new Date(at).toISOString();

/** The lifecycle every target is configured with (the config file's keys). */
export const parityConfig = {
  // A read-only key gets a smaller budget than a key that also writes (see `parityRateLimit`).
  rateLimit: { max: 100, windowSeconds: 60, roles: { read: { max: 30 } } },
  versions: {
    v1: {
      deprecatedAt: iso(parityEpoch - 10 * day),
      sunsetAt: iso(parityEpoch + 200 * day),
      closedToNewClientsAt: iso(parityEpoch + day),
      migrationUrl: 'https://docs.example.com/v1-to-v2',
    },
  },
  parameterDeprecations: [
    {
      version: 'v1',
      method: 'GET',
      path: '/users',
      parameter: 'fields',
      deprecatedAt: iso(parityEpoch - 10 * day),
      sunsetAt: iso(parityEpoch + 300 * day),
    },
    {
      version: 'v1',
      method: 'GET',
      path: '/users/{id}',
      parameter: 'fields',
      deprecatedAt: iso(parityEpoch - 200 * day),
      sunsetAt: iso(parityEpoch + day),
    },
  ],
  endpointDeprecations: [
    {
      version: 'v2',
      method: 'GET',
      path: '/users',
      deprecatedAt: iso(parityEpoch - 10 * day),
      sunsetAt: iso(parityEpoch + 190 * day),
      extendedAccessUntil: iso(parityEpoch + 300 * day),
    },
  ],
};

/**
 * The upstream's document, for a gateway: v1's user operations declare the deprecated `fields`
 * (the reference service's do already).
 */
export function parityDocumentEdit(version: string, document: Record<string, unknown>): void {
  if (version !== 'v1') return;
  const paths = document.paths as Record<string, { get: { parameters?: unknown[] } }>;
  const fields = { name: 'fields', in: 'query', required: false, schema: { type: 'string' } };
  for (const path of ['/api/v1/users', '/api/v1/users/{id}']) paths[path]!.get.parameters = [fields];
}

/**
 * The clients the scenario creates (each with an API key); `early` calls v1 before its closing;
 * `moved` has migrated: its minimum version is v2 (`parityMinimum`).
 */
export const parityClients = ['early', 'late', 'acme', 'moved'] as const;
export type ParityClient = (typeof parityClients)[number];

/** `acme` is granted its own date for the removed endpoint. */
export const parityGrant = {
  client: 'acme' as ParityClient,
  endpoint: { version: 'v2', method: 'GET', path: '/users' },
  until: iso(parityEpoch + 250 * day),
};

/** `moved`'s minimum version, set at the start (`PATCH /admin/v1/clients/{id}`): v1 is retired for it alone. */
export const parityMinimum = { client: 'moved' as ParityClient, version: 'v2' };

/**
 * Brownouts of the deprecated endpoint, planned at the start: one window aimed at `late` and `acme`
 * (whose extended access spares it), and a progressive schedule's window for everyone.
 */
export const parityBrownouts = {
  targeted: {
    version: 'v2',
    endpoint: 'GET /users',
    startsAt: iso(parityEpoch + 100 * day - 3_600_000),
    endsAt: iso(parityEpoch + 100 * day + 3_600_000),
    clients: ['late', 'acme'] as ParityClient[],
  },
  schedule: { version: 'v2', endpoint: 'GET /users', steps: [{ before: '60d', duration: '2h' }] },
  /** A window of the whole of v1, for everyone. */
  version: {
    version: 'v1',
    startsAt: iso(parityEpoch + 160 * day - 3_600_000),
    endsAt: iso(parityEpoch + 160 * day + 3_600_000),
  },
};

/**
 * The moments the cases run at: after v1 closed to new clients, inside the targeted brownout,
 * inside the progressive one, and after the endpoint's sunset.
 */
export const parityMoments = {
  closed: parityEpoch + 2 * day,
  brownout: parityEpoch + 100 * day,
  progressive: parityEpoch + 130 * day + 3_600_000,
  versionBrownout: parityEpoch + 160 * day,
  removed: parityEpoch + 195 * day,
} as const;

/**
 * The moments run after the rate-limit check (which needs v1 up: a version past its sunset stays
 * removed): v1 removed for everyone, a day after its sunset.
 */
export const parityFinalMoments = {
  v1Removed: parityEpoch + 201 * day,
} as const;

/**
 * The rate-limit rule (core's `rateCounterKey`), run after the cases (a fresh window, v1 still up): one
 * counter per client and policy. `early`'s read-only key spends the `read` budget; a second
 * read-only key of the same client finds it spent (minting keys does not multiply a budget), and
 * its key that also writes, under the `default` policy, is not drained by the other.
 */
export const parityRateLimit = {
  at: parityEpoch + 197 * day,
  client: 'early' as ParityClient,
  target: '/api/v1/users',
  readMax: parityConfig.rateLimit.roles.read.max,
  defaultMax: parityConfig.rateLimit.max,
};

/** What a case expects: `allowed` (passed to the handler), or refused with a status and problem type. */
export interface ParityExpectation {
  status?: number;
  problemType?: string;
  allowed?: true;
  /** Header values (lower-case names) the answer carries; `null`: it carries none. */
  headers?: Record<string, string | RegExp | null>;
}

/** One request and its expected answer. */
export interface ParityCase {
  name: string;
  at: keyof typeof parityMoments | keyof typeof parityFinalMoments;
  method: string;
  /** Sent byte for byte, as a probe would (a character above U+007F is sent as its Latin-1 byte). */
  target: string;
  client?: ParityClient;
  expect: ParityExpectation;
}

const removed = { status: 410, problemType: '/problems/version-removed' };
const retired = {
  status: 410,
  problemType: '/problems/version-retired-for-client',
  headers: { link: /<\/api\/v2\/openapi\.json>; rel="successor-version"/ },
};
const malformed = { status: 400, problemType: '/problems/malformed-request' };
const notAllowed = { status: 405, problemType: '/problems/method-not-allowed' };
// The service's v1 also takes POST /users; the gateway's upstream documents GET alone.
const usersAllow = /^GET, (POST, )?HEAD, OPTIONS$/;
const refusedPath = { status: 404, problemType: '/problems/not-found' };
const endpointSunset = iso(parityEpoch + 190 * day);
const v1Headers = {
  deprecation: iso(parityEpoch - 10 * day),
  sunset: iso(parityEpoch + 200 * day),
  link: /<https:\/\/docs\.example\.com\/v1-to-v2>; rel="deprecation"/,
};

export const parityCases: readonly ParityCase[] = [
  // Closed to new clients: clients that had called v1 go on; the others get the 403. (An
  // anonymous call is asked for credentials first: 401, before any rule of the table.)
  {
    name: 'v1 to a client that called it before the closing',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/users',
    client: 'early',
    expect: { allowed: true, headers: { ...v1Headers, warning: null } },
  },
  {
    name: 'v1 to a new client after the closing',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/users',
    client: 'late',
    expect: { status: 403, problemType: '/problems/closed-to-new-clients', headers: v1Headers },
  },
  // A client's minimum version: v1 is retired for `moved` alone, before the lifecycle and element
  // rules of v1 (its closing would refuse a new client with a 403; the parameter past its sunset,
  // with a 400), and before the method's 405 or a path's 404: v1 is gone for it, whatever it asks.
  {
    name: 'v1 to a client whose minimum is v2',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/users',
    client: 'moved',
    expect: retired,
  },
  {
    name: 'v1 to a client whose minimum is v2, HEAD',
    at: 'closed',
    method: 'HEAD',
    target: '/api/v1/users/1',
    client: 'moved',
    expect: { status: 410, headers: retired.headers },
  },

  {
    name: 'v1 to a client whose minimum is v2, with a deprecated parameter',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/users/1?fields=id',
    client: 'moved',
    expect: retired,
  },
  ...['PROPFIND', 'SEARCH', 'PURGE', 'PUT'].map((method): ParityCase => ({
    name: `v1 to a client whose minimum is v2, ${method} that the route does not declare`,
    at: 'closed',
    method,
    target: '/api/v1/users',
    client: 'moved',
    expect: retired,
  })),
  {
    name: 'v1 to a client whose minimum is v2, a path no document declares',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/not-in-the-document',
    client: 'moved',
    expect: retired,
  },
  {
    name: 'v2 to a client whose minimum is v2',
    at: 'closed',
    method: 'GET',
    target: '/api/v2/users',
    client: 'moved',
    expect: { allowed: true, headers: { link: /rel="deprecation"/ } },
  },
  {
    name: 'a minimum version retires nothing for another client',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/users',
    client: 'early',
    expect: { allowed: true, headers: v1Headers },
  },
  // v1 removed for everyone. The spec (lifecycle, Sunset Window → Removed): "requests receive 410 or
  // 404 (see Errors)"; the reference documents 410. To a client whose minimum retires v1, that
  // client's own 410 answers first, whatever the method or path.
  ...(['GET', 'PROPFIND'] as const).flatMap((method): ParityCase[] => [
    {
      name: `v1 removed for everyone, ${method}`,
      at: 'v1Removed',
      method,
      target: '/api/v1/users',
      client: 'early',
      expect: removed,
    },
    {
      name: `v1 removed for everyone, ${method} by a client whose minimum is v2`,
      at: 'v1Removed',
      method,
      target: '/api/v1/users',
      client: 'moved',
      expect: retired,
    },
  ]),
  {
    name: 'v1 removed for everyone, a path no document declares, by a client whose minimum is v2',
    at: 'v1Removed',
    method: 'GET',
    target: '/api/v1/not-in-the-document',
    client: 'moved',
    expect: retired,
  },
  // Deprecated parameters: the version's headers merged with the element's, or past its sunset a 400.
  {
    name: 'a deprecated parameter: the headers merged, its own link titled',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/users?fields=id',
    client: 'early',
    expect: {
      allowed: true,
      headers: { sunset: v1Headers.sunset, link: /rel="deprecation"; title="GET \/users\?fields"/ },
    },
  },
  {
    name: 'a deprecated parameter past its sunset',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/users/1?fields=id',
    client: 'early',
    expect: { status: 400, problemType: '/problems/element-removed' },
  },
  // The route index: a parameter of any length matches its template, and the operation's rules judge it.
  {
    name: "a 2,001-character id: its operation's deprecated parameter past its sunset",
    at: 'closed',
    method: 'GET',
    target: `/api/v1/users/${'1'.repeat(2001)}?fields=id`,
    client: 'early',
    expect: { status: 400, problemType: '/problems/element-removed' },
  },
  // A path no document declares: a 404, never forwarded.
  {
    name: 'a path no document declares',
    at: 'closed',
    method: 'GET',
    target: '/api/v2/not-in-the-document',
    client: 'early',
    expect: refusedPath,
  },
  {
    name: 'the deprecated endpoint, before its sunset',
    at: 'closed',
    method: 'GET',
    target: '/api/v2/users',
    client: 'late',
    expect: { allowed: true, headers: { sunset: endpointSunset, warning: null } },
  },
  // Brownouts: a targeted window refuses its clients but those with extended access; a
  // progressive schedule's window refuses everyone.
  {
    name: 'a brownout aimed at the client',
    at: 'brownout',
    method: 'GET',
    target: '/api/v2/users',
    client: 'late',
    expect: { ...removed, headers: { 'retry-after': '3600', sunset: endpointSunset } },
  },
  {
    name: 'a brownout aimed at others',
    at: 'brownout',
    method: 'GET',
    target: '/api/v2/users',
    client: 'early',
    expect: { allowed: true },
  },
  {
    name: 'a brownout spares a client with extended access',
    at: 'brownout',
    method: 'GET',
    target: '/api/v2/users',
    client: 'acme',
    expect: { allowed: true },
  },
  {
    name: 'a progressive brownout, HEAD',
    at: 'progressive',
    method: 'HEAD',
    target: '/api/v2/users',
    client: 'early',
    expect: { status: 410, headers: { 'retry-after': '3600' } },
  },
  {
    name: 'a progressive brownout',
    at: 'progressive',
    method: 'GET',
    target: '/api/v2/users',
    client: 'late',
    expect: removed,
  },
  // A brownout of the whole of v1: every path under it and OPTIONS too (it answers as if removed),
  // but a client whose minimum retires v1 gets its own 410 first, and a method the route does not
  // declare stays the 405 (core's order: the method before the brownouts).
  ...(
    [
      ['GET', '/api/v1/users', 'early', { ...removed, headers: { 'retry-after': '3600' } }],
      ['GET', '/api/v1/users', 'moved', retired],
      ['PROPFIND', '/api/v1/users', 'early', notAllowed],
      ['PUT', '/api/v1/users', 'early', notAllowed],
      ['GET', '/api/v1/not-in-the-document', 'early', removed],
      ['OPTIONS', '/api/v1/users', undefined, { ...removed, headers: { 'retry-after': '3600' } }],
      ['OPTIONS', '/api/v1/not-in-the-document', undefined, removed],
    ] as const
  ).map(([method, target, client, expect]): ParityCase => ({
    name: `a brownout of the whole version: ${method} ${target} by ${client ?? 'an anonymous caller'}`,
    at: 'versionBrownout',
    method,
    target,
    ...(client === undefined ? {} : { client }),
    expect,
  })),
  // After the endpoint's sunset: removed for everyone but the client with extended access. The spec
  // (Errors): "410 or 404 — a version or endpoint after its sunset date; one of the two is used and
  // is documented"; the reference documents 410.
  {
    name: 'the removed endpoint',
    at: 'removed',
    method: 'GET',
    target: '/api/v2/users',
    client: 'late',
    expect: { ...removed, headers: { sunset: endpointSunset } },
  },
  {
    name: 'the removed endpoint, HEAD judged as GET',
    at: 'removed',
    method: 'HEAD',
    target: '/api/v2/users',
    client: 'late',
    expect: { status: 410 },
  },
  {
    name: 'the removed endpoint to the client with extended access',
    at: 'removed',
    method: 'GET',
    target: '/api/v2/users',
    client: 'acme',
    expect: { allowed: true, headers: { sunset: parityGrant.until, warning: null } },
  },
  { name: 'the removed endpoint, anonymous', at: 'removed', method: 'GET', target: '/api/v2/users', expect: removed },
  {
    name: 'v1 five days before its sunset: Warning with its day count',
    at: 'removed',
    method: 'GET',
    target: '/api/v1/users',
    client: 'early',
    expect: { allowed: true, headers: { ...v1Headers, warning: /^299 - ".*removed in 5 days, at / } },
  },
  // The probe's spellings of the removed endpoint: one decoding, or refused.
  {
    name: 'an encoded letter (%75) is the letter',
    at: 'removed',
    method: 'GET',
    target: '/api/v2/%75sers',
    client: 'late',
    expect: removed,
  },
  {
    name: 'an encoded letter (%73) at the end',
    at: 'removed',
    method: 'GET',
    target: '/api/v2/user%73?page=1',
    client: 'late',
    expect: removed,
  },
  {
    name: 'an encoded dot segment (%2e%2e)',
    at: 'removed',
    method: 'GET',
    target: '/api/v2/users/%2e%2e/users',
    client: 'late',
    expect: refusedPath,
  },
  {
    name: 'a plain dot segment',
    at: 'removed',
    method: 'GET',
    target: '/api/v1/../v2/users',
    client: 'late',
    expect: refusedPath,
  },
  {
    name: 'an encoded slash (%2f)',
    at: 'removed',
    method: 'GET',
    target: '/api/v2%2fusers',
    client: 'late',
    expect: refusedPath,
  },
  {
    name: 'an empty segment (//)',
    at: 'removed',
    method: 'GET',
    target: '/api/v2//users',
    client: 'late',
    expect: refusedPath,
  },
  {
    name: 'a matrix parameter (;)',
    at: 'removed',
    method: 'GET',
    target: '/api/v2/users;x=1',
    client: 'late',
    expect: refusedPath,
  },
  {
    name: 'a trailing slash is the same path',
    at: 'removed',
    method: 'GET',
    target: '/api/v2/users/',
    client: 'late',
    expect: removed,
  },
  // Methods: served only where the route declares them (HEAD with GET); any other, a method no
  // document names included, is the 405 with the route's Allow, never forwarded; TRACE never.
  ...['PROPFIND', 'PURGE', 'SEARCH', 'MKCOL', 'LINK', 'TRACE', 'PUT'].map((method): ParityCase => ({
    name: `${method} on a route that does not declare it`,
    at: 'closed',
    method,
    target: '/api/v1/users',
    client: 'early',
    expect: { ...notAllowed, headers: { allow: usersAllow } },
  })),
  {
    name: 'OPTIONS on a route: 204 with Allow',
    at: 'closed',
    method: 'OPTIONS',
    target: '/api/v1/users',
    client: 'early',
    expect: { allowed: true, headers: { allow: usersAllow } },
  },
  // OPTIONS asks for no credential: an anonymous one is answered as a client's.
  {
    name: 'OPTIONS on a route, anonymous: 204 with Allow',
    at: 'closed',
    method: 'OPTIONS',
    target: '/api/v2/users',
    expect: { allowed: true, headers: { allow: /^GET, (POST, )?HEAD, OPTIONS$/ } },
  },
  {
    name: 'OPTIONS on a route closed to new clients, anonymous: 204 with Allow (no call of the version)',
    at: 'closed',
    method: 'OPTIONS',
    target: '/api/v1/users',
    expect: { allowed: true, headers: { allow: /^GET, (POST, )?HEAD, OPTIONS$/ } },
  },
  {
    name: 'OPTIONS on an undocumented path of a version closed to new clients, anonymous: the 404',
    at: 'closed',
    method: 'OPTIONS',
    target: '/api/v1/nothing',
    expect: refusedPath,
  },
  {
    name: 'a method the route does not declare, to a new client of a closed version: the 405',
    at: 'closed',
    method: 'PROPFIND',
    target: '/api/v1/users',
    client: 'late',
    expect: notAllowed,
  },
  {
    name: 'OPTIONS on an endpoint inside a brownout for everyone, anonymous: 204',
    at: 'progressive',
    method: 'OPTIONS',
    target: '/api/v2/users',
    expect: { allowed: true },
  },
  // OPTIONS where no document declares the path, anonymous: the 404 (no 401), as core's rules judge
  // a call without a principal.
  {
    name: 'OPTIONS on a path no document declares, anonymous: the 404',
    at: 'closed',
    method: 'OPTIONS',
    target: '/api/v2/not-in-the-document',
    expect: refusedPath,
  },
  {
    name: 'PROPFIND where the removed endpoint was: a method it never had is the 405',
    at: 'removed',
    method: 'PROPFIND',
    target: '/api/v2/users',
    client: 'late',
    expect: { status: 405 },
  },
  // Targets nginx reads before the rules (its own 400 page once), an absolute-form target, raw
  // bytes: every data plane answers the problem core words for them.
  ...(['%zz', '%', '%2', '%00'] as const).map((escape): ParityCase => ({
    name: `a bad escape (${escape}) in the path`,
    at: 'closed',
    method: 'GET',
    target: `/api/v1/users/${escape}`,
    client: 'early',
    expect: refusedPath,
  })),
  {
    name: 'an absolute-form target of another scheme',
    at: 'closed',
    method: 'GET',
    target: 'ftp://x/api/v1/users',
    client: 'early',
    expect: refusedPath,
  },
  {
    name: 'an absolute-form http target is its path',
    at: 'closed',
    method: 'GET',
    target: 'http://x/api/v1/users',
    client: 'early',
    expect: { allowed: true, headers: v1Headers },
  },
  {
    name: 'raw non-UTF-8 bytes in the path',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/users\xC0\xAF1',
    client: 'early',
    expect: malformed,
  },
  {
    name: 'an encoded dot segment from an unknown version',
    at: 'closed',
    method: 'GET',
    target: '/api/v3/%2e%2e/v1/users',
    client: 'early',
    expect: refusedPath,
  },
  // A Latin-1 escape in the query: never forwarded (the service, which forwards nothing, refuses
  // the query its own way, with another 400).
  {
    name: 'a Latin-1 escape in the query',
    at: 'closed',
    method: 'GET',
    target: '/api/v1/users?fields=%e9',
    client: 'early',
    expect: { status: 400 },
  },
  {
    name: 'paths are case-sensitive',
    at: 'removed',
    method: 'GET',
    target: '/api/v2/USERS',
    client: 'late',
    expect: { status: 404 },
  },
];
