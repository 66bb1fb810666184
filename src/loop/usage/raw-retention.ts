import type { Clock } from '../../core/clock/index.ts';
import type { UsageStore } from '../../kernel/ports/index.ts';
import type { UsageSettings } from './settings.ts';

const dayMs = 86_400_000;

/**
 * Delete raw usage events past their retention now, then every `intervalMs` (an hour by
 * default), and on the same schedule the hourly operation counts past theirs. Each instance may
 * run it: the DELETEs are idempotent. Returns a stop function that waits for a running DELETE, so
 * storage can close after it.
 */
export function startRawRetention(
  options: Pick<UsageSettings, 'rawRetentionDays' | 'operationRetentionDays'> & {
    store: UsageStore;
    clock: Clock;
    log: { error(obj: object, msg: string): void };
    intervalMs?: number;
  },
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const prune = () => {
    const now = options.clock.now();
    running = Promise.all([
      options.store
        .pruneRaw({ before: now - options.rawRetentionDays * dayMs })
        .catch((error: unknown) => options.log.error({ err: error }, 'pruning raw usage events failed; will retry')),
      options.store
        .pruneOperationCounts({ before: now - options.operationRetentionDays * dayMs })
        .catch((error: unknown) => options.log.error({ err: error }, 'pruning operation counts failed; will retry')),
    ]);
  };
  prune();
  const timer = setInterval(prune, options.intervalMs ?? 3_600_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
