import { diffOpenApi, type Change } from '../../core/compat/index.ts';
import {
  impactOnCalls,
  subjectId,
  toNoticePayload,
  type CallEvidence,
  type DueNotice,
  type NoticePayload,
  type NoticeSubject,
} from '../../core/notices/index.ts';
import { breaksPath } from '../../core/portal/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import { toOpenApiDocument, type VersionBundle } from '../../core/versions/index.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { ApiKeyStore, Client, ClientElementUsageRow, ClientUsageRow } from '../../kernel/ports/index.ts';
import { replacementName } from '../../core/lifecycle/index.ts';

/** The lifecycle as the planner sees it: deprecated versions, endpoints, fields and query parameters. */
export function noticeSubjects(runtime: LifecycleRuntime): NoticeSubject[] {
  // An endpoint, field or query parameter is never flagged removed: it is gone at the sunset.
  const subject = (e: Omit<NoticeSubject, 'removed'>, named: object, removed = false) => ({
    version: e.version,
    ...named,
    deprecatedAt: e.deprecatedAt,
    sunsetAt: e.sunsetAt,
    removed,
  });
  return [
    ...runtime
      .versions()
      .flatMap(({ name, schedule: s }) => (s ? [subject({ ...s, version: name }, {}, s.removed)] : [])),
    ...runtime.endpointDeprecations().map((e) => subject(e, { endpoint: `${e.method} ${e.path}` })),
    ...runtime.elements().map((e) => subject(e, { element: e.element })),
  ];
}

/** Builds notice payloads: evidence from usage rows, impact from the compatibility diff. */
export interface PayloadBuilder {
  build(options: {
    notice: DueNotice;
    client: Client;
    rows: readonly ClientUsageRow[];
    /** Element usage, for a notice about a deprecated field or query parameter. */
    elementRows?: readonly ClientElementUsageRow[];
  }): Promise<NoticePayload>;
}

/** A payload builder over the running service. Diffs are computed once per (version, replacement). */
export function createPayloadBuilder(options: {
  runtime: LifecycleRuntime;
  bundle: VersionBundle;
  apiKeys: ApiKeyStore;
  publicUrl: string;
  apiPrefix: string;
}): PayloadBuilder {
  const { runtime, bundle, publicUrl, apiPrefix } = options;
  const diffs = new Map<string, Change[]>();
  const absolute = (url: string) =>
    /^https?:\/\//.test(url) ? url : `${publicUrl}${url.startsWith('/') ? '' : '/'}${url}`;
  const changesBetween = (from: string, to: string): Change[] => {
    const key = `${from}>${to}`;
    if (!diffs.has(key)) {
      const a = bundle.get(from);
      const b = bundle.get(to);
      const doc = (v: NonNullable<typeof a>) => toOpenApiDocument({ version: v, title: 'API', basePath: apiPrefix });
      diffs.set(key, a && b ? diffOpenApi({ base: doc(a), revision: doc(b) }).changes : []);
    }
    return diffs.get(key)!;
  };
  const keyName = async (keyId: string | undefined): Promise<string> => {
    if (!keyId) return '(unnamed credential)';
    if (!keyId.startsWith('key_')) return keyId;
    return (await options.apiKeys.find(keyId))?.name ?? keyId;
  };
  return {
    async build({ notice, client, rows, elementRows = [] }) {
      if (notice.element) {
        // A field or parameter: no compatibility diff applies, the version stays.
        const e = runtime.elements().find((d) => d.version === notice.version && d.element === notice.element);
        return toNoticePayload({
          notice,
          client: { id: client.id, name: client.name },
          deprecatedAt: e?.deprecatedAt ?? notice.plannedAt,
          urls: { guide: absolute(e?.migrationUrl ?? runtime.migrationUrl(notice.version)) },
          element: { kind: e?.kind ?? 'field', name: notice.element, replacement: (e && replacementName(e)) ?? null },
          calls: elementRows
            .filter((r) => r.clientId === client.id && r.version === notice.version && r.element === notice.element)
            .sort((a, b) => a.endpoint.localeCompare(b.endpoint))
            .map((r) => ({
              endpoint: r.endpoint,
              calls: r.calls,
              firstSeen: formatIsoInstant(r.firstSeen),
              lastSeen: formatIsoInstant(r.lastSeen),
              // Element usage is counted per client, not per key or User-Agent.
              keys: [],
              userAgent: null,
            })),
          impact: [],
        });
      }
      const mine = rows.filter(
        (r) =>
          r.clientId === client.id &&
          r.version === notice.version &&
          (!notice.endpoint || r.endpoint === notice.endpoint),
      );
      const byEndpoint = new Map<string, ClientUsageRow[]>();
      for (const r of mine) byEndpoint.set(r.endpoint, [...(byEndpoint.get(r.endpoint) ?? []), r]);
      const calls: CallEvidence[] = [];
      for (const [endpoint, group] of [...byEndpoint].sort(([a], [b]) => a.localeCompare(b))) {
        const latest = group.reduce((x, y) => (y.lastSeen > x.lastSeen ? y : x));
        calls.push({
          endpoint,
          calls: group.reduce((n, r) => n + r.calls, 0),
          firstSeen: formatIsoInstant(Math.min(...group.map((r) => r.firstSeen))),
          lastSeen: formatIsoInstant(latest.lastSeen),
          keys: [...new Set(await Promise.all(group.map((r) => keyName(r.keyId))))].sort(),
          userAgent: latest.userAgent ?? null,
        });
      }
      const entry = runtime.document().versions.find((v) => v.name === notice.version);
      const replacement = entry?.replacement ?? undefined;
      const impact = replacement
        ? impactOnCalls({
            changes: changesBetween(notice.version, replacement),
            endpoints: calls.map((c) => c.endpoint),
            basePath: apiPrefix,
          })
        : [];
      const deprecatedAt = noticeSubjects(runtime).find((s) => subjectId(s) === notice.subject)?.deprecatedAt;
      return toNoticePayload({
        notice,
        client: { id: client.id, name: client.name },
        deprecatedAt: deprecatedAt ?? notice.plannedAt,
        ...(replacement ? { replacement } : {}),
        urls: {
          guide: absolute(runtime.migrationUrl(notice.version)),
          ...(replacement
            ? {
                replacement: absolute(`${apiPrefix}/${replacement}/openapi.json`),
                breaks: absolute(breaksPath({ from: notice.version, to: replacement })),
              }
            : {}),
        },
        calls,
        impact,
      });
    },
  };
}
