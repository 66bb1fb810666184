import type { FastifyInstance } from 'fastify';
import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import type { ServiceContext } from '../host/feature.ts';
import { createOperationCounter, type OperationCounter } from './operation-counter.ts';
import { createUsageRecorder } from './usage-recorder.ts';
import { usageKey } from './usage-step.ts';
import type { UsageRecorder } from '../../kernel/ports/index.ts';

/** What the usage part provides to the parts after it (the `versionaryUsage` decorator). */
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
  const recorder = createUsageRecorder({
    store: storage.usage,
    log: app.log,
    flushIntervalMs: config.settings.usage.flushSeconds * 1000,
    keepRaw: config.settings.usage.rawRetentionDays > 0,
  });
  // A retention of 0 days means no operation counts: nothing is counted, nothing written.
  const operations =
    config.settings.usage.operationRetentionDays === 0
      ? undefined
      : createOperationCounter({
          store: storage.usage,
          log: app.log,
          flushIntervalMs: config.settings.usage.operationFlushSeconds * 1000,
        });
  app.addHook('onClose', async () => {
    await Promise.all([recorder.close(), operations?.close()]);
  });
  return { recorder, ...(operations ? { operations } : {}) };
}

/** Write the buffered usage records and operation counts of `app`'s usage part now (none without one). */
export async function flushUsage(app: FastifyInstance): Promise<void> {
  const usage = usageOf(app);
  await Promise.all([usage?.recorder.flush(), usage?.operations?.flush()]);
}

const kUsage = 'versionaryUsage';

/** Provide `usage` to the parts registered after this one, in this context and its children. */
export function provideUsage(app: FastifyInstance, usage: LoopUsage): void {
  app.decorate(kUsage, usage);
}

/** The usage part's recorder and counter, when it is registered before the caller. */
export function usageOf(app: FastifyInstance): LoopUsage | undefined {
  return app.hasDecorator(kUsage) ? (app as unknown as Record<typeof kUsage, LoopUsage>)[kUsage] : undefined;
}

/** Records nothing: the recorder of an app without the usage part. */
export const discardingRecorder: UsageRecorder = {
  record: () => {},
  flush: async () => {},
  close: async () => {},
  stats: () => ({ buffered: 0, shed: 0, failures: 0 }),
};
