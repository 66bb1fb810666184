import type { FastifyInstance } from 'fastify';
import { replacementName } from '../../../core/lifecycle/index.ts';
import { formatIsoInstant } from '../../../core/time/index.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import type { UsageStore } from '../../../kernel/ports/index.ts';
import { listDeprecationsSchema } from './deprecation-list-schema.ts';

type Kind = 'version' | 'endpoint' | 'field' | 'parameter';

/** One entry of `GET /admin/v1/deprecations`. */
interface DeprecationEntry {
  kind: Kind;
  name: string;
  version: string;
  deprecatedAt: string;
  sunsetAt: string;
  replacement: string | null;
  migrationUrl: string | null;
  usage: { calls: number; clients: number; endpoints: number; lastCall: string | null };
}

interface Counted {
  calls: number;
  clients: number;
  endpoints: number;
  lastSeen: number | null;
}

const none: Counted = { calls: 0, clients: 0, endpoints: 0, lastSeen: null };

/**
 * Everything deprecated, with its usage: versions and endpoints from the lifecycle and the
 * version rollups, fields and parameters from the config and their own rollup. Reads a few rows
 * per deprecation, whatever the volume of calls.
 */
async function listDeprecations(options: {
  runtime: LifecycleRuntime;
  usage: UsageStore;
}): Promise<DeprecationEntry[]> {
  const { runtime, usage } = options;
  const entry = (e: Omit<DeprecationEntry, 'usage' | 'deprecatedAt' | 'sunsetAt'>, at: Dates, u: Counted) => ({
    ...e,
    deprecatedAt: formatIsoInstant(at.deprecatedAt),
    sunsetAt: formatIsoInstant(at.sunsetAt),
    ...(at.extendedAccessUntil === undefined ? {} : { extendedAccessUntil: formatIsoInstant(at.extendedAccessUntil) }),
    ...(at.closedToNewClientsAt === undefined
      ? {}
      : { closedToNewClientsAt: formatIsoInstant(at.closedToNewClientsAt) }),
    usage: {
      calls: u.calls,
      clients: u.clients,
      endpoints: u.endpoints,
      lastCall: u.lastSeen === null ? null : formatIsoInstant(u.lastSeen),
    },
  });
  const documented = new Map(runtime.document().versions.map((v) => [v.name, v]));
  const entries: DeprecationEntry[] = [];
  for (const v of runtime.versions()) {
    if (!v.schedule) continue;
    const summary = await usage.summary(v.name);
    const totals = await usage.clientTotals({ since: 0, version: v.name });
    const lastSeen = totals.length === 0 ? null : Math.max(...totals.map((t) => t.lastSeen));
    const replacement = documented.get(v.name)?.replacement ?? null;
    const migrationUrl = runtime.migrationUrl(v.name);
    entries.push(
      entry({ kind: 'version', name: v.name, version: v.name, replacement, migrationUrl }, v.schedule, {
        ...summary,
        lastSeen,
      }),
    );
  }
  for (const e of runtime.endpointDeprecations()) {
    const endpoint = `${e.method} ${e.path}`;
    // Over all time the per-client read is the totals rollup: a few rows per client of the version.
    const rows = (await usage.byClient({ since: 0, version: e.version })).filter((r) => r.endpoint === endpoint);
    const counted: Counted =
      rows.length === 0
        ? none
        : {
            calls: rows.reduce((n, r) => n + r.calls, 0),
            clients: new Set(rows.map((r) => r.clientId)).size,
            endpoints: 1,
            lastSeen: Math.max(...rows.map((r) => r.lastSeen)),
          };
    const name = `${endpoint} in ${e.version}`;
    const migrationUrl = e.migrationUrl ?? runtime.migrationUrl(e.version);
    const base = { kind: 'endpoint' as const, name, version: e.version, replacement: null, migrationUrl };
    entries.push(entry(base, e, counted));
  }
  const elements = runtime.elements();
  const used = elements.length === 0 ? [] : await usage.elementUsage();
  for (const e of elements) {
    const row = used.find((u) => u.version === e.version && u.element === e.element);
    const base = {
      kind: e.kind,
      name: e.element,
      version: e.version,
      replacement: replacementName(e) ?? null,
      migrationUrl: e.migrationUrl ?? null,
    };
    entries.push(entry(base, e, row ?? none));
  }
  return entries;
}

/** The dates of an entry: the two optional ones are shown only when set. */
interface Dates {
  deprecatedAt: number;
  sunsetAt: number;
  extendedAccessUntil?: number | undefined;
  closedToNewClientsAt?: number | undefined;
}

/** `GET /admin/v1/deprecations`: see {@link listDeprecations}. */
export function registerDeprecationListRoute(
  app: FastifyInstance,
  options: { runtime: LifecycleRuntime; usage: UsageStore; flushUsage: () => Promise<void> },
): void {
  app.get('/deprecations', { schema: listDeprecationsSchema }, async () => {
    // Buffered calls first, so the counts include every call made so far.
    await options.flushUsage();
    return { data: await listDeprecations(options) };
  });
}
