import { fillDays, lastDays, type DailyCount, type SunsetCountdown } from '../../../core/portal/index.ts';
import { sunsetCountdown } from '../../../core/portal/index.ts';
import type { Client, OutboxNotice } from '../../../kernel/ports/index.ts';
import type { Brownout } from '../../../core/notices/index.ts';
import { describeVersions } from '../../lifecycle/version-info.ts';
import type { DashboardOptions } from './options.ts';
import { breakingForClient, type ClientBreakingChange } from '../../lifecycle/breaks/breaking-for-client.ts';
import { gatherConsumerElements, type ConsumerElement } from '../../lifecycle/breaks/element-data.ts';

export const lookbackDays = 90;

export interface ConsumerWarning {
  /** `v1`, or `GET /users in v2` for an endpoint deprecated on its own. */
  subject: string;
  version: string;
  status: string;
  sunsetAt?: number;
  countdown?: SunsetCountdown;
  replacement?: string;
  guideUrl?: string;
  /** This client's calls per endpoint in the lookback, most called first. */
  endpoints: Array<{ endpoint: string; calls: number; lastSeen: number }>;
  /** Breaking changes towards the replacement that touch an endpoint this client calls, in plain words. */
  breaking: ClientBreakingChange[];
  /** Brownouts still to come that would refuse this client's calls. */
  brownouts: Brownout[];
}

export interface ConsumerData {
  clientId: string;
  client?: Client;
  warnings: ConsumerWarning[];
  /** This client's uses of deprecated fields and query parameters, per endpoint, over all time. */
  elements: ConsumerElement[];
  daily: Array<{ name: string; points: DailyCount[] }>;
  /** The deprecation notices sent (or queued) to this client, newest first. */
  notices: OutboxNotice[];
}

/** Gather a consumer's dashboard, always for the client of the signed-in key and no other. */
export async function gatherConsumerData(options: DashboardOptions, clientId: string): Promise<ConsumerData> {
  const now = options.clock.now();
  await options.flushUsage();
  const [rows, days, client, brownouts, notices, elements] = await Promise.all([
    options.storage.usage.byClient({ since: lastDays(now, lookbackDays).from, clientId }),
    options.storage.usage.byDay({ since: lastDays(now, 30).from, clientId }),
    options.storage.clients.find(clientId),
    options.storage.notices.listBrownouts(),
    recentNotices(options, clientId),
    gatherConsumerElements(options, clientId),
  ]);
  // A brownout concerns this client when it is to come, is for everyone, aimed at this client or its rehearsal, and covers what it calls.
  const comingFor = (version: string, endpoints: string[]) =>
    brownouts
      .filter(
        (b) =>
          b.endsAt > now &&
          b.version === version &&
          (b.clientId === undefined || b.clientId === clientId) &&
          (b.clients === undefined || b.clients.includes(clientId)) &&
          (b.endpoint === undefined || endpoints.includes(b.endpoint)),
      )
      .sort((a, b) => a.startsAt - b.startsAt);
  const versions = describeVersions(options);
  const warnings: ConsumerWarning[] = [];
  for (const v of versions) {
    const mine = rows.filter((r) => r.version === v.name);
    if (mine.length === 0) continue;
    const endpoints = perEndpoint(mine);
    const called = endpoints.map((e) => e.endpoint);
    if (v.status !== 'not_deprecated') {
      warnings.push({
        subject: v.name,
        version: v.name,
        status: v.status,
        endpoints,
        breaking: breakingForClient(options, { version: v.name, endpoints: called }),
        brownouts: comingFor(v.name, called),
        ...(v.sunsetAt !== undefined
          ? { sunsetAt: v.sunsetAt, countdown: sunsetCountdown({ now, sunsetAt: v.sunsetAt }) }
          : {}),
        ...(v.replacement ? { replacement: v.replacement } : {}),
        ...(v.guideUrl ? { guideUrl: v.guideUrl } : {}),
      });
      continue;
    }
    for (const e of v.endpoints) {
      const endpoint = `${e.method} ${e.path}`;
      if (!called.includes(endpoint)) continue;
      warnings.push({
        subject: `${endpoint} in ${v.name}`,
        version: v.name,
        status: 'deprecated',
        endpoints: endpoints.filter((c) => c.endpoint === endpoint),
        breaking: [],
        brownouts: comingFor(v.name, [endpoint]),
        sunsetAt: e.sunsetAt,
        countdown: sunsetCountdown({ now, sunsetAt: e.sunsetAt }),
        ...(e.migrationUrl ? { guideUrl: e.migrationUrl } : {}),
      });
    }
  }
  warnings.sort((a, b) => (a.sunsetAt ?? Infinity) - (b.sunsetAt ?? Infinity));
  return { clientId, ...(client ? { client } : {}), warnings, elements, daily: dailySeries(days, now), notices };
}

/** Calls per version per day over the last 30 days, a series per version, days without calls as 0. */
export function dailySeries(days: Array<{ version: string; day: number; calls: number }>, now: number) {
  return [...new Set(days.map((d) => d.version))].sort().map((name) => ({
    name,
    points: fillDays({
      counts: days.filter((d) => d.version === name).map((d) => ({ day: d.day, count: d.calls })),
      ...lastDays(now, 30),
    }),
  }));
}

/** A client's latest notices, newest first (the store pages oldest first, so read to the end). */
export async function recentNotices(options: DashboardOptions, clientId: string, keep = 20): Promise<OutboxNotice[]> {
  let afterId = 0;
  let kept: OutboxNotice[] = [];
  for (let pages = 0; pages < 50; pages++) {
    const page = await options.storage.notices.list({ clientId, limit: 200, afterId });
    kept = [...kept, ...page.items].slice(-keep);
    if (page.nextAfter === null) break;
    afterId = page.nextAfter;
  }
  return kept.reverse();
}

function perEndpoint(rows: Array<{ endpoint: string; calls: number; lastSeen: number }>): ConsumerWarning['endpoints'] {
  const by = new Map<string, { endpoint: string; calls: number; lastSeen: number }>();
  for (const r of rows) {
    const e = by.get(r.endpoint) ?? { endpoint: r.endpoint, calls: 0, lastSeen: 0 };
    e.calls += r.calls;
    e.lastSeen = Math.max(e.lastSeen, r.lastSeen);
    by.set(r.endpoint, e);
  }
  return [...by.values()].sort((a, b) => b.calls - a.calls || a.endpoint.localeCompare(b.endpoint));
}
