import { replacementName, type DeprecationDates, type ElementDeprecation } from '../lifecycle/index.ts';
import { formatIsoDate, formatIsoInstant } from '../time/index.ts';

// The changelog's entry and the entries built outside changelog.ts, in a leaf, so changelog.ts
// imports them without a circle.

/** What happened, in the changelog's words. */
type ChangelogKind =
  | 'released'
  | 'deprecated'
  | 'endpoint_deprecated'
  | 'element_deprecated'
  | 'closed_to_new_clients'
  | 'reminder'
  | 'brownout'
  | 'removed';

/** One dated event of the changelog. */
export interface ChangelogEntry {
  /** Stable across rebuilds, so feed readers do not show an entry twice. */
  id: string;
  at: number;
  kind: ChangelogKind;
  version: string;
  title: string;
  summary: string;
  /** The declared changes a release brings (empty for lifecycle events). */
  changes: string[];
  /** `METHOD /path` when the event concerns one endpoint. */
  endpoint?: string;
  /** `User.nickname` or `GET /users?order` when the event concerns one field or query parameter. */
  element?: string;
  guideUrl?: string;
}

/** A field or query parameter deprecated within a version, as the changelog needs it. */
export type ChangelogElement = ElementDeprecation & {
  /** The element's own migration notes, else its version's guide. */
  guideUrl?: string;
};

/**
 * One changelog entry per deprecated element, dated at its deprecation: "User.nickname deprecated
 * in v2: use User.displayName; sunset 2027-09-01." No removal entry follows at the sunset: the
 * version keeps the element (requests using it are refused), and the next version's release,
 * which removes it, says so in its own changes.
 */
export function toElementEntries(elements: readonly ChangelogElement[]): ChangelogEntry[] {
  return elements.map((e) => {
    const instead = replacementName(e);
    const deprecatedAt = formatIsoInstant(e.deprecatedAt).slice(0, 10);
    return {
      id: `${e.version}:${e.element}:deprecated:${deprecatedAt}`,
      at: e.deprecatedAt,
      kind: 'element_deprecated',
      version: e.version,
      element: e.element,
      ...(e.kind === 'parameter' ? { endpoint: `${e.method.toUpperCase()} ${e.path}` } : {}),
      title: `${e.element} deprecated in ${e.version}`,
      summary: `${e.element} deprecated in ${e.version}${instead ? `: use ${instead}` : ''}; sunset ${formatIsoInstant(e.sunsetAt).slice(0, 10)}.`,
      changes: [],
      ...(e.guideUrl ? { guideUrl: e.guideUrl } : {}),
    };
  });
}

/** A version, endpoint or element with a closing date (and its cap, if any), as the changelog needs it. */
export interface ChangelogClosing extends DeprecationDates {
  version: string;
  /** `METHOD /path`, for an endpoint (or a parameter's operation). */
  endpoint?: string;
  /** `User.nickname`, for a field or query parameter. */
  element?: string;
  closedToNewClientsAt: number;
  replacement?: string;
  guideUrl?: string;
}

/**
 * One changelog entry per closing to new clients, dated at the closing (so it shows once it has
 * happened, as every entry does): from then on, clients that had not used the subject are refused
 * with a 403; the ones that had go on until the sunset. Pass the result as `extra` to `buildChangelog`.
 */
export function toClosingEntries(closings: readonly ChangelogClosing[]): ChangelogEntry[] {
  return closings.map((c) => {
    const subject = c.element ?? c.endpoint;
    const what = subject ? `${subject} in ${c.version}` : c.version;
    const instead = c.replacement ? ` Use ${c.replacement} instead.` : '';
    const cap =
      c.extendedAccessUntil === undefined
        ? ''
        : ` Extended access past the sunset may be asked for, until ${formatIsoDate(c.extendedAccessUntil)} at the latest.`;
    return {
      id: `${c.version}:${subject ?? ''}:closed:${formatIsoDate(c.closedToNewClientsAt)}`,
      at: c.closedToNewClientsAt,
      kind: 'closed_to_new_clients',
      version: c.version,
      ...(c.endpoint ? { endpoint: c.endpoint } : {}),
      ...(c.element ? { element: c.element } : {}),
      title: `${what} closed to new clients`,
      summary: `${what} is closed to new clients since ${formatIsoDate(c.closedToNewClientsAt)}: clients that had not used it before are refused; the others go on until its sunset.${instead}${cap}`,
      changes: [],
      ...(c.guideUrl ? { guideUrl: c.guideUrl } : {}),
    };
  });
}
