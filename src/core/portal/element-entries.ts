import { replacementName, type ElementDeprecation } from '../lifecycle/index.ts';
import { formatIsoInstant } from '../time/index.ts';
import type { ChangelogEntry } from './changelog-entry.ts';

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
