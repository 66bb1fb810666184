import {
  lastDays,
  projectBurnDown,
  rankClients,
  type BurnDown,
  type ClientTrend,
  type DailyCount,
} from '../../../core/portal/index.ts';
import type { EndpointDeprecation } from '../../../kernel/ports/index.ts';
import { describeVersions, type VersionInfo } from '../../lifecycle/version-info.ts';
import { dailySeries, lookbackDays, recentNotices } from './consumer-data.ts';
import { gatherAdminElements, type AdminElement } from '../../lifecycle/breaks/element-data.ts';
import type { Brownout } from '../../../core/notices/index.ts';
import type { DashboardOptions } from './options.ts';

export const burnDownDays = 28;

interface CallingClient {
  clientId: string;
  name?: string;
  calls: number;
  lastSeen: number;
  versions: string[];
  /** The latest notice sent to the client: its kind, status and when. */
  lastNotice?: { kind: string; status: string; at: number };
}

export interface VersionBurnDown {
  version: string;
  burnDown: BurnDown;
  clients: Array<ClientTrend & { name?: string }>;
}

export interface AdminData {
  versions: VersionInfo[];
  daily: Array<{ name: string; points: DailyCount[] }>;
  calling: CallingClient[];
  endpoints: EndpointDeprecation[];
  elements: AdminElement[];
  burnDowns: VersionBurnDown[];
  brownouts: Brownout[];
}

export async function gatherAdminData(options: DashboardOptions): Promise<AdminData> {
  const now = options.clock.now();
  await options.flushUsage();
  const versions = describeVersions(options);
  const { usage, clients } = options.storage;
  const [days, rows] = await Promise.all([
    usage.byDay({ since: lastDays(now, 30).from }),
    usage.byClient({ since: lastDays(now, lookbackDays).from }),
  ]);

  const byClient = new Map<string, CallingClient>();
  for (const r of rows) {
    const c = byClient.get(r.clientId) ?? { clientId: r.clientId, calls: 0, lastSeen: 0, versions: [] };
    c.calls += r.calls;
    c.lastSeen = Math.max(c.lastSeen, r.lastSeen);
    if (!c.versions.includes(r.version)) c.versions.push(r.version);
    byClient.set(r.clientId, c);
  }
  const known = new Map(
    (await clients.findMany([...byClient.keys()].filter((id) => id.startsWith('cl_')))).map((c) => [c.id, c.name]),
  );
  const named = <C extends { clientId: string }>(c: C) =>
    known.has(c.clientId) ? { ...c, name: known.get(c.clientId)! } : c;
  const ranked = [...byClient.values()]
    .map((c) => named({ ...c, versions: c.versions.sort() }))
    .sort((a, b) => b.calls - a.calls || a.clientId.localeCompare(b.clientId));
  // The notice history of the clients shown: the latest notice of each, one small read per client.
  const calling = await Promise.all(
    ranked.slice(0, 100).map(async (c) => {
      const [last] = await recentNotices(options, c.clientId, 1);
      return last
        ? { ...c, lastNotice: { kind: last.kind, status: last.status, at: last.sentAt ?? last.createdAt } }
        : c;
    }),
  );

  const burnDowns: VersionBurnDown[] = [];
  for (const v of versions.filter((info) => info.status !== 'not_deprecated' && info.sunsetAt !== undefined)) {
    const since = lastDays(now, burnDownDays).from;
    const perClientRows = await usage.byDay({ since, version: v.name, perClient: true });
    const distinct = new Map<number, Set<string>>();
    const perClient = new Map<string, DailyCount[]>();
    for (const r of perClientRows) {
      if (!r.clientId) continue;
      distinct.set(r.day, (distinct.get(r.day) ?? new Set()).add(r.clientId));
      perClient.set(r.clientId, [...(perClient.get(r.clientId) ?? []), { day: r.day, count: r.calls }]);
    }
    const burnDown = projectBurnDown({
      daily: [...distinct].map(([day, set]) => ({ day, count: set.size })),
      sunsetAt: v.sunsetAt!,
      now,
      windowDays: burnDownDays,
    });
    const clients = rankClients({ perClient, now, windowDays: burnDownDays }).map(named);
    burnDowns.push({ version: v.name, burnDown, clients });
  }
  return {
    versions,
    daily: dailySeries(days, now),
    calling,
    endpoints: options.runtime.endpointDeprecations(),
    elements: await gatherAdminElements(options),
    burnDowns,
    brownouts: await options.storage.notices.listBrownouts(),
  };
}
