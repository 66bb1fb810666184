import type { ParsedLifecycleHeaders } from './parse-headers.ts';

/**
 * A deprecated version or endpoint as a client met it, with everything the server said about it.
 *
 * @example
 * ```ts
 * client.on('deprecation', (notice: DeprecationNotice) => console.log(notice.version, notice.sunsetAt));
 * ```
 */
export interface DeprecationNotice {
  /** The API version the call used, e.g. `v1`. */
  version: string | undefined;
  /** The call that first met it, e.g. `GET https://api.example/api/v1/books`. */
  endpoint: string;
  deprecatedAt: Date | undefined;
  sunsetAt: Date | undefined;
  /** Whole days until the sunset (negative once past); `undefined` without a Sunset header. */
  daysLeft: number | undefined;
  guideUrl: string | undefined;
  successorUrl: string | undefined;
  warning: string | undefined;
  /** The response status: a removed version answers 410. */
  status: number;
  /** The deprecated fields and query parameters the call used (`User.nickname`, `GET /users?order`); empty when none. */
  elements?: string[];
}

/**
 * The error a client raises once a sunset is closer than its `failWithinDays`: for tests and CI,
 * so a dependency on a dying version breaks the build before it breaks production.
 *
 * @example
 * ```ts
 * try { await client.fetch('/books'); } catch (error) { if (error instanceof SunsetApproachingError) console.error(error.notice.sunsetAt); }
 * ```
 */
export class SunsetApproachingError extends Error {
  readonly notice: DeprecationNotice;

  constructor(notice: DeprecationNotice, withinDays: number) {
    super(`${describeNotice(notice)} The sunset is within ${withinDays} day(s), the limit set by failWithinDays.`);
    this.name = 'SunsetApproachingError';
    this.notice = notice;
  }
}

/**
 * One clear sentence about a notice, as the default handler logs it.
 *
 * @example
 * ```ts
 * describeNotice(notice); // 'versionary: GET https://… uses deprecated API version v1 (deprecated 2026-06-01, sunset 2027-06-30, in 219 days). Migration guide: …'
 * ```
 */
export function describeNotice(notice: DeprecationNotice): string {
  const what =
    notice.elements && notice.elements.length > 0
      ? `deprecated ${notice.elements.join(', ')}${notice.version ? ` of API version ${notice.version}` : ''}`
      : notice.version
        ? `deprecated API version ${notice.version}`
        : 'a deprecated API';
  const guide = notice.guideUrl ? ` Migration guide: ${notice.guideUrl}.` : '';
  const successor = notice.successorUrl ? ` Successor: ${notice.successorUrl}.` : '';
  const warning = notice.warning ? ` Server says: ${notice.warning}` : '';
  return `versionary: ${notice.endpoint} uses ${what} (${datesOf(notice)}).${guide}${successor}${warning}`;
}

/** Build a notice from parsed headers, the call and the current time. */
export function toNotice(options: {
  parsed: ParsedLifecycleHeaders;
  version: string | undefined;
  endpoint: string;
  status: number;
  now: number;
}): DeprecationNotice {
  const { parsed } = options;
  return {
    version: options.version,
    endpoint: options.endpoint,
    status: options.status,
    deprecatedAt: parsed.deprecatedAt,
    sunsetAt: parsed.sunsetAt,
    daysLeft: parsed.sunsetAt ? Math.floor((parsed.sunsetAt.getTime() - options.now) / 86_400_000) : undefined,
    guideUrl: parsed.guideUrl,
    successorUrl: parsed.successorUrl,
    warning: parsed.warning,
    elements: parsed.elements.map((e) => e.name),
  };
}

/** `deprecated 2026-06-01, sunset 2027-06-30, in 219 days` (or `no sunset announced`): a notice's dates, as both kinds tell them. */
export function datesOf(n: Pick<DeprecationNotice, 'deprecatedAt' | 'sunsetAt' | 'daysLeft'>): string {
  const sunset = n.sunsetAt
    ? `sunset ${day(n.sunsetAt)}${n.daysLeft === undefined ? '' : n.daysLeft < 0 ? ', already past' : `, in ${n.daysLeft} days`}`
    : 'no sunset announced';
  return n.deprecatedAt ? `deprecated ${day(n.deprecatedAt)}, ${sunset}` : sunset;
}

/** A date as its UTC calendar day, `2027-01-01`. */
function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}
