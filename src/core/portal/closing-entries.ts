import type { DeprecationDates } from '../lifecycle/index.ts';
import { formatIsoDate } from '../time/index.ts';
import type { ChangelogEntry } from './changelog-entry.ts';

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
