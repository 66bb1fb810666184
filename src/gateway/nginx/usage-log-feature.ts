import type { ServiceFeature } from '../../loop/host/feature.ts';
import { parseUsageLine, usageOfLine, type LineJudge } from './usage-log-calls.ts';
import { createUsageLogReader, type ReadLines } from './usage-log-reader.ts';

/** Malformed lines logged one by one per chunk; past it, only their number. */
const loggedPerChunk = 5;

/**
 * The control plane's reader of nginx's usage log (`gateway.nginx.usageLog`): started once the
 * app is ready, stopped (its pass finished, its lease released) when it closes. Its lines counts
 * are metrics: `versionary_usage_log_lines_total{outcome}` and `versionary_usage_log_lag_bytes`.
 */
export function usageLogFeature(options: { path: string; pollMs?: number; settleMs?: number }): ServiceFeature {
  return {
    name: 'nginx-usage-log',
    install({ app, storage, bundle, runtime, config, ops }) {
      const log = app.log.child({ usageLog: options.path });
      const judge: LineJudge = { bundle, verdict: (key) => runtime.verdict(key) };
      const countOperations = config.settings.usage.operationRetentionDays > 0;
      const toUsage = (lines: readonly string[]): ReadLines => {
        const read: ReadLines = { calls: [], counts: [], counted: 0, skipped: 0, malformed: 0 };
        for (const text of lines) {
          if (text === '') continue;
          const line = parseUsageLine(text);
          const usage =
            typeof line === 'string' ? { kind: 'malformed' as const, reason: line } : usageOfLine(line, judge);
          if (usage.kind === 'malformed') {
            if (read.malformed++ < loggedPerChunk)
              log.warn({ reason: usage.reason, line: text.slice(0, 200) }, 'malformed usage log line skipped');
          } else if (usage.kind === 'skipped') read.skipped++;
          else {
            read.counted++;
            read.calls.push(...usage.calls);
            if (usage.count && countOperations) read.counts.push(usage.count);
          }
        }
        if (read.malformed > loggedPerChunk)
          log.warn({ malformed: read.malformed }, 'malformed usage log lines skipped in one read');
        return read;
      };
      const reader = createUsageLogReader({
        path: options.path,
        store: storage.usageLog,
        toUsage,
        keepRaw: config.settings.usage.rawRetentionDays > 0,
        log,
        ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
        ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
      });
      ops.metrics.registerCounter({
        name: 'versionary_usage_log_lines_total',
        help: "Lines of nginx's usage log read, by outcome: counted, skipped (no usage, as the gateway records none), malformed.",
        labelNames: ['outcome'],
        collect: () => {
          const s = reader.stats();
          return (['counted', 'skipped', 'malformed'] as const).map((outcome) => ({
            labels: { outcome },
            value: s[outcome],
          }));
        },
      });
      ops.metrics.registerGauge({
        name: 'versionary_usage_log_lag_bytes',
        help: "Bytes of nginx's usage log written but not yet counted, as of the last read.",
        collect: () => reader.stats().lagBytes,
      });
      app.addHook('onReady', async () => reader.start());
      app.addHook('onClose', async () => reader.stop());
    },
  };
}
