/** One recorded call to a deprecated version, as the spec's usage monitoring describes it. */
export interface UsageRecord {
  version: string;
  endpoint: string;
  clientId: string;
  /** Epoch milliseconds. */
  at: number;
}

/** Usage of one version: total calls and distinct clients and endpoints. */
export interface VersionUsage {
  version: string;
  calls: number;
  clients: number;
  endpoints: number;
  /** Epoch milliseconds of the first and last call seen. */
  firstCallAt: number;
  lastCallAt: number;
}

/** Options for {@link summarizeUsage}. */
export interface SummarizeUsageOptions {
  records: Iterable<UsageRecord>;
  /** Count only calls at or after this instant. */
  from?: number;
  /** Count only calls before this instant. */
  until?: number;
}

/**
 * Reduce usage records to a per-version summary, sorted by version name. Pure: storage decides
 * where records come from; this only counts.
 */
export function summarizeUsage(options: SummarizeUsageOptions): VersionUsage[] {
  const byVersion = new Map<
    string,
    { calls: number; clients: Set<string>; endpoints: Set<string>; first: number; last: number }
  >();
  for (const record of options.records) {
    if (options.from !== undefined && record.at < options.from) continue;
    if (options.until !== undefined && record.at >= options.until) continue;
    const entry = byVersion.get(record.version) ?? {
      calls: 0,
      clients: new Set<string>(),
      endpoints: new Set<string>(),
      first: record.at,
      last: record.at,
    };
    entry.calls += 1;
    entry.clients.add(record.clientId);
    entry.endpoints.add(record.endpoint);
    entry.first = Math.min(entry.first, record.at);
    entry.last = Math.max(entry.last, record.at);
    byVersion.set(record.version, entry);
  }
  return [...byVersion.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([version, e]) => ({
      version,
      calls: e.calls,
      clients: e.clients.size,
      endpoints: e.endpoints.size,
      firstCallAt: e.first,
      lastCallAt: e.last,
    }));
}
