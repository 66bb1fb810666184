import { DAY_MS } from '../lifecycle/index.ts';
import { formatIsoDate, formatIsoInstant } from '../time/index.ts';
import type { DeprecationManifestSource } from '../lifecycle/deprecation-manifest.ts';
import type { Brownout } from '../notices/index.ts';
import { toElementEntries, type ChangelogElement, type ChangelogEntry } from './changelog-entry.ts';

export type { ChangelogEntry } from './changelog-entry.ts';

/** A version as the changelog needs it: its declared changes and its lifecycle. */
export interface ChangelogVersion {
  name: string;
  /** Absent for a version released on no known date: it gets no "released" entry. */
  releasedAt?: number;
  /** The API's first version (none before it), which brings no changes of its own. */
  first?: boolean;
  /** Descriptions of the version changes that introduced this version. */
  changes: string[];
  deprecatedAt?: number;
  sunsetAt?: number;
  removed?: boolean;
  replacement?: string;
  guideUrl?: string;
}

/** An endpoint deprecated on its own while the rest of its version stays. */
type ChangelogEndpoint = Pick<
  DeprecationManifestSource['endpoints'][number],
  'version' | 'method' | 'path' | 'deprecatedAt' | 'sunsetAt'
> & { guideUrl?: string };

export interface BuildChangelogOptions {
  versions: readonly ChangelogVersion[];
  endpoints?: readonly ChangelogEndpoint[];
  /** Fields and query parameters deprecated within a version: one entry each, at its deprecation. */
  elements?: readonly ChangelogElement[];
  /** Events known elsewhere (brownouts, sent reminders), merged in by date. */
  extra?: readonly ChangelogEntry[];
  now: number;
}

/** The changelog: past events newest first, and the sunsets still to come, soonest first. */
export interface Changelog {
  entries: ChangelogEntry[];
  upcoming: Array<{ version: string; endpoint?: string; sunsetAt: number; replacement?: string; guideUrl?: string }>;
}

/** A version with no declared changes is the first only when it is: a gateway's v2 read from OpenAPI declares none either. */
function releaseSummary(v: ChangelogVersion): string {
  if (v.changes.length > 0) return `${v.name} brings ${v.changes.length} change(s).`;
  return v.first ? `${v.name} is the first version.` : `${v.name} declares no changes of its own.`;
}

/**
 * Build the changelog from the declared version changes and the lifecycle. Only events that have
 * happened by `now` are entries (a feed must not carry future dates); scheduled sunsets are listed
 * apart as `upcoming`. The "fewer than 30 days" reminder is dated when the `Warning` header starts.
 */
export function buildChangelog(options: BuildChangelogOptions): Changelog {
  const { now } = options;
  const all: ChangelogEntry[] = [...(options.extra ?? []), ...toElementEntries(options.elements ?? [])];
  const upcoming: Changelog['upcoming'] = [];
  for (const v of options.versions) {
    // An undated version gets no entry rather than a made-up date.
    if (v.releasedAt !== undefined)
      all.push({
        id: `${v.name}:released`,
        at: v.releasedAt,
        kind: 'released',
        version: v.name,
        title: `${v.name} released`,
        summary: releaseSummary(v),
        changes: v.changes,
      });
    if (v.deprecatedAt === undefined || v.sunsetAt === undefined) continue;
    const { deprecatedAt, sunsetAt, removed, replacement, guideUrl } = v;
    pushDeprecation(all, upcoming, { now, version: v.name, deprecatedAt, sunsetAt, removed, replacement, guideUrl });
  }
  for (const { version, method, path, deprecatedAt, sunsetAt, guideUrl } of options.endpoints ?? [])
    pushDeprecation(all, upcoming, { now, version, endpoint: `${method} ${path}`, deprecatedAt, sunsetAt, guideUrl });
  const entries = all.filter((e) => e.at <= now).sort((a, b) => b.at - a.at || a.id.localeCompare(b.id));
  upcoming.sort((a, b) => a.sunsetAt - b.sunsetAt);
  return { entries, upcoming };
}

interface DeprecationEvent {
  now: number;
  version: string;
  endpoint?: string;
  deprecatedAt: number;
  sunsetAt: number;
  removed?: boolean;
  replacement?: string;
  guideUrl?: string;
}

/** A version's or an endpoint's deprecation, its reminder, and its removal or upcoming sunset. */
function pushDeprecation(all: ChangelogEntry[], upcoming: Changelog['upcoming'], e: DeprecationEvent): void {
  const subject = e.endpoint ? `${e.endpoint} in ${e.version}` : e.version;
  const key = e.endpoint ? `${e.version}:${e.endpoint}` : e.version;
  const instead = e.replacement ? ` Move to ${e.replacement}.` : '';
  const guide = e.guideUrl ? { guideUrl: e.guideUrl } : {};
  all.push({
    id: `${key}:deprecated:${formatIsoDate(e.deprecatedAt)}`,
    at: e.deprecatedAt,
    kind: e.endpoint ? 'endpoint_deprecated' : 'deprecated',
    version: e.version,
    ...(e.endpoint ? { endpoint: e.endpoint } : {}),
    title: e.endpoint ? `${e.endpoint} deprecated in ${e.version}` : `${e.version} deprecated`,
    summary: `${subject} is deprecated and will be removed on ${formatIsoDate(e.sunsetAt)}.${instead}`,
    changes: [],
    ...guide,
  });
  const base = {
    version: e.version,
    changes: [],
    ...(e.endpoint ? { endpoint: e.endpoint } : {}),
    ...guide,
  };
  const remindAt = e.sunsetAt - URGENT_DAYS * DAY_MS;
  all.push({
    ...base,
    id: `${key}:reminder:${formatIsoDate(e.sunsetAt)}`,
    at: remindAt,
    kind: 'reminder',
    title: `${subject}: ${URGENT_DAYS} days left`,
    summary: `${subject} will be removed on ${formatIsoDate(e.sunsetAt)}, in ${URGENT_DAYS} days.${instead}`,
  });
  if (e.removed === true || e.sunsetAt <= e.now) {
    all.push({
      ...base,
      id: `${key}:removed:${formatIsoDate(e.sunsetAt)}`,
      at: Math.min(e.sunsetAt, e.now),
      kind: 'removed',
      title: `${subject} removed`,
      summary: `${subject} has been removed: its requests are refused.${instead}`,
    });
  } else {
    upcoming.push({
      version: e.version,
      sunsetAt: e.sunsetAt,
      ...(e.endpoint ? { endpoint: e.endpoint } : {}),
      ...guide,
      ...(e.replacement ? { replacement: e.replacement } : {}),
    });
  }
}

/**
 * Changelog entries for the global brownouts that have started by `now` (rehearsals, targeted
 * brownouts and future windows are left out: a feed carries no future dates, and a rehearsal (a
 * brownout with a `clientId`) or a targeted brownout (`clients`) concerns those clients only).
 * Pass the result as `extra` to {@link buildChangelog}.
 */
export function toBrownoutEntries(brownouts: readonly Brownout[], now: number): ChangelogEntry[] {
  return brownouts
    .filter((b) => b.clientId === undefined && b.clients === undefined && b.startsAt <= now)
    .map((b) => {
      const subject = b.endpoint ? `${b.endpoint} of ${b.version}` : b.version;
      return {
        id: `brownout-${b.id}`,
        at: b.startsAt,
        kind: 'brownout' as const,
        version: b.version,
        title: `Brownout of ${subject}`,
        summary: `${subject} answered as if removed from ${formatIsoInstant(b.startsAt)} to ${formatIsoInstant(b.endsAt)}, a rehearsal of its removal at sunset.`,
        changes: [],
        ...(b.endpoint ? { endpoint: b.endpoint } : {}),
      };
    });
}

/** How near a sunset is, as a person reads it. */
export interface SunsetCountdown {
  /** Whole days left, rounded up (a sunset later today is 1 day away); 0 once it has passed. */
  daysLeft: number;
  /** `urgent` under 30 days (the spec's `Warning` header threshold), `past` at or after the sunset. */
  level: 'calm' | 'urgent' | 'past';
}

/** Days under which a sunset is urgent: the same threshold as the `Warning` response header. */
const URGENT_DAYS = 30;

export function sunsetCountdown(options: { now: number; sunsetAt: number }): SunsetCountdown {
  const left = options.sunsetAt - options.now;
  if (left <= 0) return { daysLeft: 0, level: 'past' };
  const daysLeft = Math.ceil(left / DAY_MS);
  return { daysLeft, level: daysLeft < URGENT_DAYS ? 'urgent' : 'calm' };
}
