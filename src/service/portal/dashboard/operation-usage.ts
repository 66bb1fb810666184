import type { UsageStore } from '../../ports/index.ts';

/** Calls of one (version, operation, client) over a window: contract item 1 of issue 34. */
export interface OperationUsageRow {
  version: string;
  endpoint: string;
  clientId: string;
  calls: number;
  lastSeen: number;
}

type WithOperationUsage = UsageStore & {
  operationUsage?: (options: {
    since: number;
    until?: number;
    version?: string;
    clientId?: string;
  }) => Promise<OperationUsageRow[]>;
};

/**
 * A client's calls per (version, operation) in `[since, until)`, read through the usage port's
 * `operationUsage`, which counts every version. Interim: until that method is on the port, the
 * per-minute rollups stand in, which hold calls to deprecated versions and endpoints only.
 */
export async function operationUsageOf(
  usage: UsageStore,
  options: { since: number; until?: number; clientId: string },
): Promise<OperationUsageRow[]> {
  const port = usage as WithOperationUsage;
  if (typeof port.operationUsage === 'function') return port.operationUsage(options);
  const rows = await usage.byClient(options);
  const by = new Map<string, OperationUsageRow>();
  for (const r of rows) {
    const key = `${r.version} ${r.endpoint}`;
    const row = by.get(key) ?? {
      version: r.version,
      endpoint: r.endpoint,
      clientId: r.clientId,
      calls: 0,
      lastSeen: 0,
    };
    row.calls += r.calls;
    row.lastSeen = Math.max(row.lastSeen, r.lastSeen);
    by.set(key, row);
  }
  return [...by.values()];
}
