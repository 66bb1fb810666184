/**
 * The lifecycle headers of one response, parsed. Dates are `undefined` when the header is absent
 * or unreadable; `deprecated` is true when any header says so.
 */
export interface ParsedLifecycleHeaders {
  deprecated: boolean;
  deprecatedAt: Date | undefined;
  sunsetAt: Date | undefined;
  /** `Link: <…>; rel="deprecation"`: the migration guide. */
  guideUrl: string | undefined;
  /** `Link: <…>; rel="deprecation"; type="application/deprecations+json"`: the API's deprecation manifest. */
  manifestUrl: string | undefined;
  /** `Link: <…>; rel="successor-version"`. */
  successorUrl: string | undefined;
  /** `Link: <…>; rel="sunset"` (RFC 8594). */
  sunsetUrl: string | undefined;
  /** The text of a `Warning: 299` header. */
  warning: string | undefined;
  /**
   * The deprecated fields and parameters the request used: one `Link: <guide>; rel="deprecation";
   * title="User.nickname"` each. Empty when the deprecation is the version's or endpoint's alone.
   */
  elements: Array<{ name: string; guideUrl: string }>;
}

/**
 * Read `Deprecation` (ISO 8601, RFC 9745 `@<unix seconds>`, or the draft's `true`), `Sunset` (ISO
 * 8601 or the RFC 8594 HTTP-date), `Link` (`deprecation`, `successor-version`, `sunset`) and
 * `Warning: 299`. Relative links are resolved against `base`.
 *
 * @example
 * ```ts
 * parseLifecycleHeaders(new Headers({ deprecation: '@1780272000', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' })).sunsetAt;
 * ```
 */
export function parseLifecycleHeaders(headers: Headers, base?: string): ParsedLifecycleHeaders {
  const deprecation = headers.get('deprecation')?.trim();
  const link = headers.get('link') ?? '';
  const manifestUrl = manifestLinkOf(link, base);
  // The guide is the first `rel="deprecation"` that is not the manifest.
  const links = parseLinkHeader(manifestUrl === undefined ? link : withoutManifestLinks(link), base);
  const warning = parseWarning(headers.get('warning') ?? '');
  const deprecatedAt = deprecation ? parseDeprecationDate(deprecation) : undefined;
  return {
    deprecated:
      (deprecation !== undefined && deprecation !== '' && deprecation.toLowerCase() !== 'false') ||
      links.has('deprecation') ||
      warning !== undefined,
    deprecatedAt,
    sunsetAt: parseHttpOrIsoDate(headers.get('sunset')?.trim() ?? ''),
    guideUrl: links.get('deprecation'),
    manifestUrl,
    successorUrl: links.get('successor-version'),
    sunsetUrl: links.get('sunset'),
    warning,
    elements: parseDeprecatedElements(link, base),
  };
}

/**
 * The `rel="deprecation"` links that carry a `title`: each names a deprecated element the request
 * used (a field or query parameter), with its migration guide.
 */
function parseDeprecatedElements(value: string, base?: string): Array<{ name: string; guideUrl: string }> {
  const out: Array<{ name: string; guideUrl: string }> = [];
  for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*(?:[^;,"]|"(?:[^"\\]|\\.)*")+)*)/g)) {
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i.exec(params);
    const types = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    const title = /;\s*title\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(params);
    if (types.includes('deprecation') && title)
      out.push({ name: title[1]!.replace(/\\(.)/g, '$1'), guideUrl: resolveUrl(match[1]!, base) });
  }
  return out;
}

const linkPattern = /<([^>]*)>((?:\s*;\s*(?:[^;,"]|"(?:[^"\\]|\\.)*")+)*)/g;
const manifestType = /;\s*type\s*=\s*"?application\/deprecations\+json"?/i;

// The deprecation manifest draft: the manifest is a `rel="deprecation"` link told apart by its type.
function manifestLinkOf(value: string, base?: string): string | undefined {
  for (const match of value.matchAll(linkPattern))
    if (manifestType.test(match[2] ?? '') && /;\s*rel\s*=\s*"?[^";]*\bdeprecation\b/i.test(match[2] ?? ''))
      return resolveUrl(match[1]!, base);
  return undefined;
}

function withoutManifestLinks(value: string): string {
  return value.replace(linkPattern, (whole, _target: string, params: string) =>
    manifestType.test(params) ? '' : whole,
  );
}

/**
 * A `Deprecation` value as a date: `@1780272000` (RFC 9745) or an ISO 8601 instant; `true` (early
 * drafts) carries no date.
 *
 * @example
 * ```ts
 * parseDeprecationDate('@1780272000')?.toISOString(); // '2026-06-01T00:00:00.000Z'
 * ```
 */
export function parseDeprecationDate(value: string): Date | undefined {
  const structured = /^@(-?[0-9]{1,15})$/.exec(value);
  if (structured) return new Date(Number(structured[1]) * 1000);
  return parseHttpOrIsoDate(value);
}

const isoPattern =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:[Zz]|[+-][0-9]{2}:?[0-9]{2})?)?$/;
const httpDatePattern =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/;

/**
 * An ISO 8601 instant or an HTTP-date (IMF-fixdate, as RFC 8594's `Sunset` uses); anything else is
 * `undefined` rather than a guess.
 *
 * @example
 * ```ts
 * parseHttpOrIsoDate('Wed, 30 Jun 2027 00:00:00 GMT')?.toISOString(); // '2027-06-30T00:00:00.000Z'
 * ```
 */
export function parseHttpOrIsoDate(value: string): Date | undefined {
  if (!isoPattern.test(value) && !httpDatePattern.test(value)) return undefined;
  // A date-only or zone-less ISO value is UTC, as the API spec writes them.
  const normalised =
    isoPattern.test(value) && !/(?:[Zz]|[+-][0-9]{2}:?[0-9]{2})$/.test(value) && value.length > 10
      ? `${value}Z`
      : value;
  const ms = Date.parse(normalised);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/**
 * The targets of a `Link` header by relation type (the first of each), resolved against `base`.
 *
 * @example
 * ```ts
 * parseLinkHeader('</guide>; rel="deprecation"', 'https://api.example/v1/books').get('deprecation'); // 'https://api.example/guide'
 * ```
 */
export function parseLinkHeader(value: string, base?: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i.exec(match[2] ?? '');
    const types = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const target = resolveUrl(match[1]!, base);
    for (const type of types) if (!out.has(type)) out.set(type, target);
  }
  return out;
}

/** `target` resolved against `base`, or as it is when it is no URL. */
export function resolveUrl(target: string, base: string | undefined): string {
  try {
    return new URL(target, base).toString();
  } catch {
    return target;
  }
}

/**
 * The text of the first `Warning` with code 299 (`299 - "text"`), unquoted.
 *
 * @example
 * ```ts
 * parseWarning('299 - "API version v1 is deprecated"'); // 'API version v1 is deprecated'
 * ```
 */
export function parseWarning(value: string): string | undefined {
  const match = /(?:^|,)\s*299\s+\S+\s+"((?:[^"\\]|\\.)*)"/.exec(value);
  return match ? match[1]!.replace(/\\(.)/g, '$1') : undefined;
}
