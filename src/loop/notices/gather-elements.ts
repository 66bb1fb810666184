import { replacementName, type ElementDeprecation } from '../../core/lifecycle/index.ts';
import {
  toNoticePayload,
  type CallEvidence,
  type ClientUsage,
  type DueNotice,
  type NoticePayload,
  type NoticeSubject,
} from '../../core/notices/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { Client, ClientElementUsageRow } from '../../kernel/ports/index.ts';

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

/**
 * The payload of a notice about a field or parameter: the client's calls that sent it, per
 * endpoint, and what to send instead. No compatibility diff applies: the version stays.
 */
export function elementPayload(o: {
  runtime: LifecycleRuntime;
  absolute: (url: string) => string;
  notice: DueNotice;
  client: Client;
  elementRows: readonly ClientElementUsageRow[];
}): NoticePayload {
  const { notice, runtime } = o;
  const e = runtime.elements().find((d) => d.version === notice.version && d.element === notice.element);
  const calls: CallEvidence[] = o.elementRows
    .filter((r) => r.clientId === o.client.id && r.version === notice.version && r.element === notice.element)
    .sort((a, b) => a.endpoint.localeCompare(b.endpoint))
    .map((r) => ({
      endpoint: r.endpoint,
      calls: r.calls,
      firstSeen: formatIsoInstant(r.firstSeen),
      lastSeen: formatIsoInstant(r.lastSeen),
      // Element usage is counted per client, not per key or User-Agent.
      keys: [],
      userAgent: null,
    }));
  return toNoticePayload({
    notice,
    client: { id: o.client.id, name: o.client.name },
    deprecatedAt: e?.deprecatedAt ?? notice.plannedAt,
    urls: { guide: o.absolute(e?.migrationUrl ?? runtime.migrationUrl(notice.version)) },
    element: { kind: e?.kind ?? 'field', name: notice.element!, replacement: (e && replacementName(e)) ?? null },
    calls,
    impact: [],
  });
}
