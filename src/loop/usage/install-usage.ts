import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import type { ServiceContext } from '../host/feature.ts';
import { createOperationCounter, type OperationCounter } from './operation-counter.ts';
import { createUsageRecorder } from './usage-recorder.ts';
import { usageKey } from './usage-step.ts';
import { usageSection } from './settings.ts';
import type { UsageRecorder } from '../../kernel/ports/index.ts';

/** What the usage part provides to the parts after it (`provideToLaterParts`). */
export interface LoopUsage {
  recorder: UsageRecorder;
  /** Counts every call of every version per operation and client; absent when counting is off. */
  operations?: OperationCounter;
}

/**
 * Record usage: calls to deprecated versions in the usage recorder, and every version's calls per
 * operation in the operation counter (none when its retention is 0 days), each once its answer is
 * known not to be a refusal (`after:usage`). Both are flushed and closed with the app.
 */
export function installUsage({ app, config, storage, api }: ServiceContext): LoopUsage {
  // Usage is written once each call is answered, and only when it was not refused.
  provideSteps({ app, prefix: api.prefix }, [[usageKey, {}]]);
  const settings = usageSection.of(config);
  const { usage: store } = storage;
  const recorder = createUsageRecorder({
    store,
    log: app.log,
    flushIntervalMs: settings.flushSeconds * 1000,
    keepRaw: settings.rawRetentionDays > 0,
  });
  // A retention of 0 days means no operation counts: nothing is counted, nothing written.
  const operations =
    settings.operationRetentionDays === 0
      ? undefined
      : createOperationCounter({ store, log: app.log, flushIntervalMs: settings.operationFlushSeconds * 1000 });
  // Buffered usage is written before anything closes (the database closes last, in `onClose`).
  app.addHook('preClose', async () => {
    await Promise.all([recorder.flush(), operations?.flush()]);
  });
  app.addHook('onClose', async () => {
    await Promise.all([recorder.close(), operations?.close()]);
  });
  return { recorder, ...(operations ? { operations } : {}) };
}
