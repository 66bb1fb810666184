import { describeNotice, SunsetApproachingError, toNotice, type DeprecationNotice } from './deprecation-notice.ts';
import { parseLifecycleHeaders } from './parse-headers.ts';
import type { ManifestNotice } from './manifest-check.ts';
import { createManifestWatch, firstTime, type ManifestOptions } from './manifest-watch.ts';

/**
 * Options for {@link createVersionaryClient}.
 *
 * @example
 * ```ts
 * const options: VersionaryClientOptions = { baseUrl: 'https://api.example/api', version: 2, versioning: 'accept', vendor: 'acme' };
 * ```
 */
export interface VersionaryClientOptions {
  /** Where the API lives, without the version: `https://api.example/api`. */
  baseUrl?: string;
  /** The version this client speaks: `2` or `'v2'`. */
  version: number | string;
  /** `path` (default) puts `/v2` in the URL; `accept` sends `Accept: application/vnd.<vendor>+json; version=2`. */
  versioning?: 'path' | 'accept';
  /** The media-type vendor, required for `accept` versioning. */
  vendor?: string;
  /** Told once per process of each deprecated version or endpoint; the default logs one warning. */
  onDeprecation?: (notice: DeprecationNotice) => void;
  /**
   * Told once per process and origin when `api-supported-versions` lists versions newer than this
   * client's (ASP.NET API Versioning's "new API available"). Silent by default: a deprecation is
   * what calls for action, and it is reported on its own.
   */
  onNewVersion?: (notice: NewVersionNotice) => void;
  /** Raise a {@link SunsetApproachingError} on any response whose sunset is within this many days (or past). */
  failWithinDays?: number;
  /**
   * The API's deprecation manifest, read by `checkManifest()`: where it is, what the program uses
   * besides the calls it makes, and whether a passed sunset is an error (the default) or a warning.
   */
  manifest?: ManifestOptions;
  /** Told once per process of each deprecated thing the manifest says the program uses; the default logs one warning. */
  onManifestNotice?: (notice: ManifestNotice) => void;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

/** Newer versions a server offers than the one a client speaks. */
export interface NewVersionNotice {
  version: string;
  /** Newer versions the server supports, oldest first. */
  newer: string[];
  origin: string;
}

/** The `openapi-fetch` middleware shape: `client.use(versionary.middleware)`. */
export interface VersionaryMiddleware {
  onRequest(options: { request: Request }): Request | undefined;
  onResponse(options: { request: Request; response: Response }): Response | undefined;
}

/**
 * A client for a Versionary-style API.
 *
 * @example
 * ```ts
 * const books = await (await client.fetch('/books')).json();
 * ```
 */
export interface VersionaryClient {
  /** `fetch` with the version applied and the response's lifecycle headers checked. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Check a response obtained elsewhere; returns its notice when it is deprecated. */
  inspect(response: Response, request?: { method?: string; url?: string }): DeprecationNotice | undefined;
  middleware: VersionaryMiddleware;
  /**
   * Read the API's deprecation manifest (once; a failed read is tried again next time) and report
   * every deprecated version, endpoint, field or parameter the program is known to use: its own
   * version, what `manifest.uses` names, and the calls made so far (later calls are matched as they
   * are made). Throws a `DeprecatedUseError` once a sunset has passed (unless `afterSunset: 'warn'`)
   * or is within `failWithinDays`, and a `ManifestUnreadableError` when there is no readable manifest.
   */
  checkManifest(): Promise<ManifestNotice[]>;
  /** The `Accept` value this client sends in `accept` versioning. */
  readonly accept: string | undefined;
}

/**
 * Create a client that sends its version on every call and reads `Deprecation`, `Sunset`, `Link`
 * and `Warning` on every response. Each deprecated version or endpoint is reported once per
 * process (the default logs one warning), and with `failWithinDays` a close sunset becomes an error.
 *
 * @example
 * ```ts
 * import { createVersionaryClient } from 'versionary/client';
 *
 * const client = createVersionaryClient({ baseUrl: 'https://api.example/api', version: 1, failWithinDays: process.env.CI ? 30 : undefined });
 * const res = await client.fetch('/books');
 * ```
 */
export function createVersionaryClient(options: VersionaryClientOptions): VersionaryClient {
  const number =
    typeof options.version === 'number' ? options.version : Number(/^v?([0-9]+)$/.exec(options.version)?.[1]);
  if (!Number.isInteger(number) || number < 1)
    throw new TypeError(`version must be a positive integer or "v<n>", not ${JSON.stringify(options.version)}`);
  const versioning = options.versioning ?? 'path';
  if (versioning === 'accept' && !options.vendor) throw new TypeError('vendor is required for accept versioning');
  if (options.failWithinDays !== undefined && !(options.failWithinDays >= 0))
    throw new TypeError('failWithinDays must be a number of days, 0 or more');
  const version = `v${number}`;
  const accept = versioning === 'accept' ? `application/vnd.${options.vendor}+json; version=${number}` : undefined;
  const now = options.now ?? Date.now;
  const report = options.onDeprecation ?? ((notice: DeprecationNotice) => console.warn(describeNotice(notice)));
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  const manifest = createManifestWatch({
    manifest: options.manifest,
    baseUrl: base,
    version,
    failWithinDays: options.failWithinDays,
    now,
    // Unbound, the global fetch throws "Illegal invocation" in some runtimes.
    fetch: (input, init) => doFetch(input, init),
    report: options.onManifestNotice,
  });

  const inspect: VersionaryClient['inspect'] = (response, request) => {
    const url = request?.url ?? response.url;
    if (options.onNewVersion) {
      const newer = newerVersions(response.headers.get('api-supported-versions'), number);
      const origin = originOf(url);
      if (newer.length > 0 && firstTime(`new ${origin} ${version} ${newer.join(',')}`))
        options.onNewVersion({ version, newer, origin });
    }
    const parsed = parseLifecycleHeaders(response.headers, url || undefined);
    if (parsed.manifestUrl) manifest.discover(parsed.manifestUrl);
    if (!parsed.deprecated && !parsed.sunsetAt) return undefined;
    const method = (request?.method ?? 'GET').toUpperCase();
    const notice = toNotice({
      parsed,
      version: versionOf(url) ?? version,
      endpoint: `${method} ${url.split('?')[0]}`,
      status: response.status,
      now: now(),
    });
    // A version's deprecation gives the same headers on every endpoint, an endpoint's its own: the
    // headers name the subject, so one report per distinct set of them.
    const key = [
      originOf(url),
      notice.version,
      parsed.deprecatedAt?.getTime(),
      parsed.sunsetAt?.getTime(),
      parsed.guideUrl,
      // Each deprecated field or parameter used is its own subject, reported once.
      ...parsed.elements.map((e) => e.name),
    ].join(' ');
    if (firstTime(key)) report(notice);
    const limit = options.failWithinDays;
    if (limit !== undefined && notice.daysLeft !== undefined && notice.daysLeft < limit)
      throw new SunsetApproachingError(notice, limit);
    return notice;
  };

  return {
    accept,
    inspect,
    checkManifest: () => manifest.check(),
    async fetch(path, init) {
      const url = versioning === 'path' ? `${base}/${version}${path}` : `${base}${path}`;
      const headers = new Headers(init?.headers);
      if (accept && !headers.has('accept')) headers.set('accept', accept);
      const response = await doFetch(url, { ...init, headers });
      inspect(response, { method: init?.method ?? 'GET', url });
      manifest.observe(init?.method ?? 'GET', path);
      return response;
    },
    middleware: {
      onRequest({ request }) {
        if (!accept || request.headers.get('accept')?.includes('version=')) return undefined;
        const headers = new Headers(request.headers);
        headers.set('accept', accept);
        return new Request(request, { headers });
      },
      onResponse({ request, response }) {
        inspect(response, { method: request.method, url: request.url });
        const below = belowVersion(request.url, base, version);
        if (below !== undefined) manifest.observe(request.method, below);
        return undefined;
      },
    },
  };
}

/** The versions of an `api-supported-versions` value newer than `number`, oldest first. */
function newerVersions(supported: string | null, number: number): string[] {
  return (supported ?? '')
    .split(',')
    .map((v) => /^\s*v([0-9]+)\s*$/.exec(v)?.[1])
    .filter((n) => n !== undefined)
    .map(Number)
    .filter((n) => n > number)
    .sort((a, b) => a - b)
    .map((n) => `v${n}`);
}

// The part of a request URL below the client's version: `/users/1?fields=a` of
// `…/api/v1/users/1?fields=a`, or of `…/api/users/1?fields=a` under `accept` versioning.
function belowVersion(url: string, base: string, version: string): string | undefined {
  let path: string;
  let basePath: string;
  try {
    const parsed = new URL(url);
    path = parsed.pathname + parsed.search;
    basePath = base ? new URL(base, parsed).pathname.replace(/\/+$/, '') : '';
  } catch {
    return undefined;
  }
  const at = path.indexOf(`/${version}/`);
  if (at >= 0) return path.slice(at + version.length + 1);
  return basePath && path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

function versionOf(url: string): string | undefined {
  return /\/(v[0-9]+)(?:[/?#]|$)/.exec(url)?.[1];
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
