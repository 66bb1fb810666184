import { replacementName } from '../../../core/lifecycle/index.ts';
import { formatIsoInstant } from '../../../core/time/index.ts';
import { isoDeprecationDates } from './deprecation-dates.ts';
import type { DeprecationListEntry } from './deprecation-list-schema.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import type { UsageStore } from '../../../kernel/ports/index.ts';

type Kind = 'version' | 'endpoint' | 'field' | 'parameter';

/** One deprecation with its usage: an entry of `GET /admin/v1/deprecations` and of the MCP `deprecations` tool. */
export type DeprecationEntry = DeprecationListEntry & { kind: Kind };

interface Counted {
  calls: number;
  clients: number;
  endpoints: number;
  lastSeen: number | null;
}

const none: Counted = { calls: 0, clients: 0, endpoints: 0, lastSeen: null };

const counted = (rows: ReadonlyArray<{ calls: number; clientId: string; lastSeen: number }>, endpoints: number) =>
  rows.length === 0
    ? none
    : {
        calls: rows.reduce((n, r) => n + r.calls, 0),
        clients: new Set(rows.map((r) => r.clientId)).size,
        endpoints,
        lastSeen: Math.max(...rows.map((r) => r.lastSeen)),
      };

/**
 * Everything deprecated, with its usage: versions and endpoints from the lifecycle and the
 * version rollups, fields and parameters from the config and their own rollup. Reads a few rows
 * per deprecation, whatever the volume of calls. With `clientId`, counted over that client's own
 * calls, and only what it has called (the deprecations that affect it) unless `all`.
 */
export async function listDeprecations(options: {
  runtime: LifecycleRuntime;
  usage: UsageStore;
  clientId?: string;
  all?: boolean;
}): Promise<DeprecationEntry[]> {
  const { runtime, usage, clientId, all } = options;
  const mine = clientId === undefined ? {} : { clientId };
  const entries: Array<{ entry: Omit<DeprecationEntry, 'usage'>; used: Counted }> = [];
  const documented = new Map(runtime.document().versions.map((v) => [v.name, v]));
  for (const v of runtime.versions()) {
    if (!v.schedule) continue;
    const totals = await usage.clientTotals({ since: 0, version: v.name, ...mine });
    const summary = clientId === undefined ? await usage.summary(v.name) : undefined;
    const calls = counted(totals, 0);
    const endpoints =
      summary?.endpoints ??
      new Set((await usage.byClient({ since: 0, version: v.name, ...mine })).map((r) => r.endpoint)).size;
    const used = summary ? { ...summary, lastSeen: calls.lastSeen } : { ...calls, endpoints };
    const replacement = documented.get(v.name)?.replacement ?? null;
    const migrationUrl = runtime.migrationUrl(v.name);
    const base = { kind: 'version' as const, name: v.name, version: v.name, replacement, migrationUrl };
    entries.push({ entry: { ...base, ...isoDeprecationDates(v.schedule) }, used });
  }
  for (const e of runtime.endpointDeprecations()) {
    const endpoint = `${e.method} ${e.path}`;
    // Over all time the per-client read is the totals rollup: a few rows per client of the version.
    const rows = (await usage.byClient({ since: 0, version: e.version, ...mine })).filter(
      (r) => r.endpoint === endpoint,
    );
    const migrationUrl = e.migrationUrl ?? runtime.migrationUrl(e.version);
    const base = {
      kind: 'endpoint' as const,
      name: `${endpoint} in ${e.version}`,
      version: e.version,
      replacement: null,
      migrationUrl,
    };
    entries.push({ entry: { ...base, ...isoDeprecationDates(e) }, used: counted(rows, 1) });
  }
  const elements = runtime.elements();
  const used = elements.length === 0 ? [] : await usage.elementUsage(mine);
  for (const e of elements) {
    const row = used.find((u) => u.version === e.version && u.element === e.element);
    const base = {
      kind: e.kind,
      name: e.element,
      version: e.version,
      replacement: replacementName(e) ?? null,
      migrationUrl: e.migrationUrl ?? null,
    };
    entries.push({ entry: { ...base, ...isoDeprecationDates(e) }, used: row ?? none });
  }
  return entries
    .filter(({ used }) => clientId === undefined || all === true || used.calls > 0)
    .map(({ entry, used }) => ({
      ...entry,
      usage: {
        calls: used.calls,
        clients: used.clients,
        endpoints: used.endpoints,
        lastCall: used.lastSeen === null ? null : formatIsoInstant(used.lastSeen),
      },
    }));
}
