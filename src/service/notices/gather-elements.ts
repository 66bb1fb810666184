import type { ClientUsage, NoticeSubject } from '../../core/notices/index.ts';
import type { ElementDeprecation } from '../../core/lifecycle/index.ts';
import type { ClientElementUsageRow } from '../ports/index.ts';

/**
 * Deprecated fields and query parameters as notice subjects: a client that sent one is told about
 * it as about a deprecated version, with the element's own sunset. An element is never flagged
 * removed: it is gone at its sunset.
 */
export function elementSubjects(elements: readonly ElementDeprecation[]): NoticeSubject[] {
  return elements.map((e) => ({
    version: e.version,
    element: e.element,
    deprecatedAt: e.deprecatedAt,
    sunsetAt: e.sunsetAt,
    removed: false,
  }));
}

/**
 * Element usage rows as the planner reads them, carrying their element so they count for its
 * subject only. Element usage is kept as totals: the planner's lookback reads their last call.
 */
export function toElementUsage(rows: readonly ClientElementUsageRow[]): ClientUsage[] {
  return rows.map((r) => ({
    clientId: r.clientId,
    version: r.version,
    endpoint: r.endpoint,
    element: r.element,
    calls: r.calls,
    firstSeen: r.firstSeen,
    lastSeen: r.lastSeen,
  }));
}
