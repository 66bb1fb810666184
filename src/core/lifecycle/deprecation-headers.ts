import type { Clock } from '../clock/index.ts';
import { DAY_MS, WARNING_WINDOW_MS } from './durations.ts';
import { formatImfFixdate, formatIsoInstant } from '../time/index.ts';
import { ErrorCode, VersionaryError } from '../errors/index.ts';

/**
 * `iso8601` (the default) sends ISO 8601 dates as the spec's table shows; `rfc` follows RFC 9745
 * (`Deprecation: @<epoch-seconds>`) and RFC 8594 (IMF-fixdate `Sunset`, a `rel="sunset"` link).
 * `iso` is the deprecated spelling of `iso8601`: still accepted, and the plugin warns about it
 * (`VERSIONARY_DEP001`).
 */
export type DeprecationHeaderStyle = 'iso8601' | 'rfc' | 'iso';

/** What the headers describe: a version's schedule or an endpoint's own deprecation. */
interface HeaderSchedule {
  version: string;
  /** When absent, the `Deprecation` header carries the current time, as the spec says. */
  deprecatedAt?: number;
  sunsetAt: number;
  removed?: boolean;
}

/** Options for {@link deprecationHeaders}. */
export interface DeprecationHeadersOptions {
  /** `undefined` for a current version: no headers at all. */
  schedule: HeaderSchedule | undefined;
  clock: Clock;
  style?: DeprecationHeaderStyle;
  /** The migration guide: `rel="deprecation"`. */
  migrationUrl?: string;
  /** The replacement's entry point: `rel="successor-version"`. */
  successorUrl?: string;
  /** `rel="sunset"` target in the `rfc` style; defaults to `migrationUrl`. */
  sunsetUrl?: string;
  /** The replacement's name, for the Warning text. */
  replacement?: string;
  /** What is deprecated, for the Warning text; defaults to `API version <version>`. */
  subject?: string;
}

/** Result of {@link deprecationHeaders}. */
export interface DeprecationHeaders {
  headers: Record<string, string>;
  /**
   * The first instant at which the headers differ from these (the Warning appears, its day count
   * drops, or the version is removed); `undefined` when time alone never changes them. Cache until then.
   */
  changesAt: number | undefined;
}

/**
 * The deprecation headers for responses of a deprecated version or endpoint at the clock's time:
 * `Deprecation`, `Sunset`, `Link`, and `Warning: 299` once fewer than 30 days remain. After the
 * sunset (or once flagged removed) the Warning is dropped; the rest can still go on the 410.
 *
 * @example
 * ```ts
 * const { headers, changesAt } = deprecationHeaders({ schedule, clock, migrationUrl: 'https://example.com/migrate/v1' });
 * // headers.Sunset === '2026-07-01T00:00:00.000Z'
 * ```
 */
export function deprecationHeaders(options: DeprecationHeadersOptions): DeprecationHeaders {
  const { schedule } = options;
  if (!schedule) return { headers: {}, changesAt: undefined };
  const now = options.clock.now();
  const rfc = options.style === 'rfc';
  const deprecatedAt = schedule.deprecatedAt ?? now;
  const headers: Record<string, string> = {
    Deprecation: rfc ? `@${Math.floor(deprecatedAt / 1000)}` : formatIsoInstant(deprecatedAt),
    Sunset: rfc ? formatImfFixdate(schedule.sunsetAt) : formatIsoInstant(schedule.sunsetAt),
  };
  const linkTo = (url: string | undefined, field: string, rel: string) =>
    url === undefined ? [] : [`${linkTarget(url, field)}; rel="${rel}"`];
  const link = [
    ...linkTo(options.migrationUrl, 'migrationUrl', 'deprecation'),
    ...linkTo(options.successorUrl, 'successorUrl', 'successor-version'),
    ...(rfc ? linkTo(options.sunsetUrl ?? options.migrationUrl, 'sunsetUrl', 'sunset') : []),
  ].join(', ');
  if (link !== '') headers.Link = link;

  const removed = schedule.removed === true || now > schedule.sunsetAt;
  const remaining = schedule.sunsetAt - now;
  let changesAt: number | undefined;
  if (!removed && remaining >= WARNING_WINDOW_MS) {
    changesAt = schedule.sunsetAt - WARNING_WINDOW_MS + 1;
  } else if (!removed) {
    const daysLeft = Math.floor(remaining / DAY_MS);
    headers.Warning = `299 - ${quoteHeaderText(warningText({ ...options, schedule, daysLeft }))}`;
    changesAt = schedule.sunsetAt - daysLeft * DAY_MS + 1;
  }
  if (schedule.deprecatedAt === undefined) {
    // "Now" is in the Deprecation header, so it changes at the next tick of its precision.
    const tick = rfc ? Math.floor(now / 1000) * 1000 + 1000 : now + 1;
    changesAt = changesAt === undefined ? tick : Math.min(changesAt, tick);
  }
  return { headers, changesAt };
}

function warningText(options: DeprecationHeadersOptions & { schedule: HeaderSchedule; daysLeft: number }): string {
  const subject = options.subject ?? `API version ${options.schedule.version}`;
  const when =
    options.daysLeft === 0 ? 'less than 1 day' : `${options.daysLeft} day${options.daysLeft === 1 ? '' : 's'}`;
  const target = options.replacement === undefined ? 'a supported version' : options.replacement;
  const guide = options.migrationUrl === undefined ? '' : ` (${options.migrationUrl})`;
  return (
    `${subject} is deprecated and will be removed in ${when}, at ${formatIsoInstant(options.schedule.sunsetAt)}; ` +
    `please migrate to ${target}${guide}.`
  );
}

/**
 * Quote text for a header `quoted-string` (RFC 9110 section 5.6.4): escapes `"` and `\`, and
 * replaces anything outside visible ASCII and space, so config text can never split a header.
 */
export function quoteHeaderText(text: string): string {
  const safe = text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, (c) => `\\${c}`);
  return `"${safe}"`;
}

/**
 * Check a URI before it goes between `<` and `>` in a `Link` header; throws `INVALID_CONFIG`
 * rather than percent-encoding it, since a silently rewritten URL would mislead clients.
 */
export function linkTarget(uri: string, field: string): string {
  if (uri === '' || /[^\x21-\x7e]|[<>"]/.test(uri)) {
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: `${field} cannot appear in a Link header: ${JSON.stringify(uri)} must be a non-empty URI of visible ASCII without <, > or ".`,
      extensions: { field, value: uri },
    });
  }
  return `<${uri}>`;
}
