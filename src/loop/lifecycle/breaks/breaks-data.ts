import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { DAY_MS } from '../../../core/lifecycle/index.ts';
import { describeVersions } from '../version-info.ts';
import { breakingChangesBetween, reachingEndpoints } from './breaking-for-client.ts';
import { gatherConsumerElements } from './element-data.ts';
import type { BreaksOptions } from './breaks-options.ts';

/** Days of calls the page looks back over. */
export const breaksWindowDays = 7;

export type BreaksData = Awaited<ReturnType<typeof gatherBreaks>>;
export type ClientBreak = BreaksData['changes'][number];

export interface BreaksQuery {
  from?: string;
  to?: string;
}

/** The breaking changes from `from` to `to` that reach this client's calls of the last few days. */
export async function gatherBreaks(options: BreaksOptions, request: { clientId: string } & BreaksQuery) {
  const { clientId } = request;
  const infos = describeVersions(options);
  const versions = infos.map((v) => v.name);
  for (const [name, value] of [
    ['from', request.from],
    ['to', request.to],
  ] as const)
    if (value !== undefined && !versions.includes(value))
      throw invalid(`"${name}" must be one of ${versions.join(', ')}; "${value.slice(0, 40)}" is not a version.`);
  await options.flushUsage();
  const until = options.clock.now();
  const since = until - breaksWindowDays * DAY_MS;
  const [rows, client, used] = await Promise.all([
    // No upper bound: a call made at this very instant counts too (`until` is exclusive).
    options.storage.usage.operationUsage({ since, clientId }),
    options.storage.clients.find(clientId),
    gatherConsumerElements(options, clientId),
  ]);
  const from = request.from ?? mostCalled(rows, versions) ?? infos.find((v) => v.served)?.name ?? versions[0]!;
  const fromInfo = infos.find((v) => v.name === from)!;
  const to = request.to ?? fromInfo.replacement ?? versions[versions.length - 1]!;
  if (versions.indexOf(to) < versions.indexOf(from))
    throw invalid(`"to" must be ${from} or a later version: ${to} is older than ${from}.`);
  const called = rows
    .filter((r) => r.version === from)
    .map((r) => ({ endpoint: r.endpoint, calls: r.calls, lastSeen: r.lastSeen }))
    .sort((a, b) => b.calls - a.calls || a.endpoint.localeCompare(b.endpoint));
  const byEndpoint = new Map(called.map((c) => [c.endpoint, c]));
  // The diff is the same for every client (and reused); which of its changes reach this client's calls is not.
  const diff = breakingChangesBetween(options, { from, to });
  const changes = reachingEndpoints(diff.value ?? [], [...byEndpoint.keys()]).map((c) => ({
    ...c,
    operations: c.operations.map((o) => byEndpoint.get(o)!),
  }));
  const notes = infos
    .slice(versions.indexOf(from) + 1, versions.indexOf(to) + 1)
    .flatMap((v) => v.changes.map((text) => `${v.name}: ${text}`));
  return {
    clientId,
    ...(client ? { client } : {}),
    versions,
    from,
    to,
    since,
    until,
    called,
    changes,
    elements: used.filter((e) => e.version === from && e.lastSeen >= since),
    // The migration guide of `from`, when `to` is its replacement.
    ...(fromInfo.guideUrl && fromInfo.replacement === to ? { guideUrl: fromInfo.guideUrl } : {}),
    // The declared descriptions of the changes from `from` up to `to`, `v2: …`.
    notes,
    // Whether the pair's diff was reused or computed for this page, and what computing it cost (ms).
    diff: { reused: diff.reused, ms: diff.ms },
  };
}

/** The version with the most calls; the older one on a tie, it being the one to move off. */
function mostCalled(rows: ReadonlyArray<{ version: string; calls: number }>, versions: string[]): string | undefined {
  const totals = new Map<string, number>();
  for (const r of rows) if (versions.includes(r.version)) totals.set(r.version, (totals.get(r.version) ?? 0) + r.calls);
  return [...totals].sort(([a, x], [b, y]) => y - x || versions.indexOf(a) - versions.indexOf(b))[0]?.[0];
}

function invalid(detail: string): VersionaryError {
  return new VersionaryError({ code: ErrorCode.ValidationFailed, detail });
}
