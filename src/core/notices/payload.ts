import { earlierNames } from '../earlier-names.ts';
import type { Change } from '../compat/index.ts';
import { formatIsoInstant } from '../time/index.ts';
import { isDecisionKind, type DueNotice, type NoticeKind } from './types.ts';

/** One endpoint this client called, as evidence of why it is told. */
export interface CallEvidence {
  endpoint: string;
  calls: number;
  firstSeen: string;
  lastSeen: string;
  /** Names of the API keys (never the secrets) that made the calls. */
  keys: string[];
  userAgent: string | null;
}

/** A breaking change between the version and its replacement that touches the client's calls. */
export interface CallImpact {
  endpoint: string;
  rule: string;
  message: string;
}

/** The documented body of every notice: the webhook payload, and what the email is rendered from. */
export interface NoticePayload {
  type: string;
  timestamp: string;
  data: {
    client: { id: string; name: string };
    kind: NoticeKind;
    subject: {
      version: string;
      endpoint: string | null;
      status: 'deprecated' | 'removed' | 'cleared';
      deprecatedAt: string;
      sunsetAt: string;
      daysLeft: number;
    };
    replacement: { version: string; url: string } | null;
    migrationGuideUrl: string;
    /** The portal's "What breaks for me" page from this version to its replacement; null without a replacement. */
    breaksUrl: string | null;
    brownout: { startsAt: string; endsAt: string } | null;
    /** Set when the subject is a deprecated field or query parameter of the version; null otherwise. */
    element: NoticeElement | null;
    calls: CallEvidence[];
    impact: CallImpact[];
    /** The owner's decision, on a decision's notice (`eventType`); null (or absent) otherwise. Its wire name is the first release's. */
    [earlierNames.noticeMember]?: ExtendedAccessDecisionFacts | null;
  };
}

/** What a decision on a client's request for extended access says (its events: `eventType`). */
export interface ExtendedAccessDecisionFacts {
  /** The request decided (`exr_…`). */
  requestId: string;
  decision: 'granted' | 'declined';
  /** The client's own date: its calls are answered until then. Null on a decline. */
  until: string | null;
  /** The latest date any extension of the subject may reach (`extendedAccessUntil`); null when none is set. */
  cap: string | null;
  /** The owner's note on a grant, or the reason of a decline; null when a grant came without one. */
  reason: string | null;
}

/** The deprecated field or query parameter a notice is about, and what takes its place. */
export interface NoticeElement {
  kind: 'field' | 'parameter';
  /** `User.nickname`, `GET /users?order`. */
  name: string;
  /** `User.displayName`, `GET /users?sort`; null when none is named. */
  replacement: string | null;
}

// Every other kind's event is named as the kind.
const eventNames: Partial<Record<NoticeKind, string>> = { reminder: 'sunset_reminder', brownout: 'brownout_scheduled' };

/**
 * The event type of a notice: `version.<event>`, `endpoint.<event>` or `element.<event>`; a
 * decision on a request for extended access keeps the first release's names (`earlierNames`):
 * `<eventPrefix>.granted` or `<eventPrefix>.declined`.
 */
export function eventType(notice: Pick<DueNotice, 'kind' | 'endpoint' | 'element'>): string {
  if (isDecisionKind(notice.kind)) return `${earlierNames.eventPrefix}.${notice.kind}`;
  const about = notice.element ? 'element' : notice.endpoint ? 'endpoint' : 'version';
  return `${about}.${eventNames[notice.kind] ?? notice.kind}`;
}

/**
 * The breaking changes of a diff that touch one of `endpoints` (`GET /users/{id}`), directly or
 * through a shared schema. Paths in the diff carry `basePath`, which is cut before matching.
 */
export function impactOnCalls(options: {
  changes: readonly Change[];
  endpoints: readonly string[];
  basePath: string;
}): CallImpact[] {
  const strip = (op: string) => {
    const [method = '', path = ''] = op.split(' ');
    return `${method.toUpperCase()} ${path.startsWith(options.basePath) ? path.slice(options.basePath.length) || '/' : path}`;
  };
  const wanted = new Set(options.endpoints);
  const out: CallImpact[] = [];
  for (const change of options.changes) {
    if (change.level !== 'breaking') continue;
    const direct =
      change.location.method && change.location.path ? [`${change.location.method} ${change.location.path}`] : [];
    const touched = [...direct, ...(change.location.operations ?? [])].map(strip).filter((op) => wanted.has(op));
    for (const endpoint of new Set(touched)) out.push({ endpoint, rule: change.id, message: change.message });
  }
  return out;
}

/** Build the payload of a due notice from what the service gathered. */
export function toNoticePayload(options: {
  notice: DueNotice;
  client: { id: string; name: string };
  deprecatedAt: number;
  replacement?: string;
  urls: { guide: string; replacement?: string; breaks?: string };
  element?: NoticeElement;
  calls: CallEvidence[];
  impact: CallImpact[];
}): NoticePayload {
  const { notice } = options;
  const status = notice.kind === 'removed' ? 'removed' : notice.kind === 'cleared' ? 'cleared' : 'deprecated';
  return {
    type: eventType(notice),
    timestamp: formatIsoInstant(notice.plannedAt),
    data: {
      client: options.client,
      kind: notice.kind,
      subject: {
        version: notice.version,
        endpoint: notice.endpoint ?? null,
        status,
        deprecatedAt: formatIsoInstant(options.deprecatedAt),
        sunsetAt: formatIsoInstant(notice.sunsetAt),
        daysLeft: notice.daysLeft,
      },
      replacement: options.replacement ? { version: options.replacement, url: options.urls.replacement ?? '' } : null,
      migrationGuideUrl: options.urls.guide,
      breaksUrl: options.urls.breaks ?? null,
      brownout: notice.brownout
        ? { startsAt: formatIsoInstant(notice.brownout.startsAt), endsAt: formatIsoInstant(notice.brownout.endsAt) }
        : null,
      element: options.element ?? null,
      calls: options.calls,
      impact: options.impact,
      [earlierNames.noticeMember]: null,
    },
  };
}
