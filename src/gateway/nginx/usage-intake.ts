import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { createSchemaValidator } from '../../core/config/schema-validator.ts';
import { usageSection } from '../../loop/usage/settings.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import type { OperationCount, UsageCall } from '../../kernel/ports/index.ts';
import { nginxUsagePath } from './control-paths.ts';
import { UsageBatchSchema, usageOfEntry, type EntryJudge, type UsageBatch } from './usage-batch.ts';
import type { LifecycleContext } from '../../loop/lifecycle/context.ts';

const batchValidator = createSchemaValidator(UsageBatchSchema, {
  unknownKey: ({ where, key }) => `${where}: unknown key "${key}"`,
});

/** How long one control plane holds an nginx instance's batches before another may record them. */
const leaseMs = 30_000;

/**
 * `POST /_versionary/nginx/usage`: record a batch of the calls nginx counted, as the gateway's
 * usage. Each instance's last sequence number moves in the transaction that writes the rows, so a
 * batch posted again is not counted twice; one another control plane is recording is a 503.
 */
export function installUsageIntake(
  context: LifecycleContext,
  options: { guard: (request: FastifyRequest) => Promise<void>; onBatch?: (batch: UsageBatch) => void },
): void {
  const { app, storage, bundle, runtime, config } = context;
  const judge: EntryJudge = { bundle, verdict: (key) => runtime.verdict(key) };
  const owner = `${process.pid}-${randomUUID()}`;
  const countOperations = usageSection.of(config).operationRetentionDays > 0;
  const keepRaw = usageSection.of(config).rawRetentionDays > 0;
  const queues = new Map<string, Promise<unknown>>();
  const record = async (batch: UsageBatch): Promise<'recorded' | 'again'> => {
    const path = `nginx-usage:${batch.instance}`;
    // The lease is the hosts' time, not the rules' (a test's fixed clock would hold it for ever).
    const now = Date.now();
    if (!(await storage.usageLog.lease({ path, owner, now, until: now + leaseMs }))) {
      throw new VersionaryError({
        code: ErrorCode.StorageUnavailable,
        detail: "Another control plane is recording this nginx's usage. Retry later.",
      });
    }
    try {
      const stored = await storage.usageLog.position(path);
      if (stored && stored.offset >= batch.seq) return 'again';
      const calls: UsageCall[] = [];
      const counts: OperationCount[] = [];
      for (const entry of batch.entries) {
        const usage = usageOfEntry(entry, judge);
        calls.push(...usage.calls);
        if (usage.count && countOperations) counts.push(usage.count);
      }
      const position = { path, device: 'nginx', inode: batch.instance, offset: batch.seq };
      await storage.usageLog.commit({ position, calls, counts, keepRaw, owner });
      return 'recorded';
    } finally {
      // Let another control plane record the next batch at once (nginx may call another host).
      await storage.usageLog.release({ path, owner }).catch(() => {});
    }
  };
  app.post(
    nginxUsagePath,
    { logLevel: 'warn', onRequest: options.guard, bodyLimit: 64 * 1024 * 1024 },
    async (request) => {
      const errors = batchValidator.errors(request.body, 'batch');
      if (errors.length > 0)
        throw new VersionaryError({
          code: ErrorCode.ValidationFailed,
          detail: `The usage batch is not one nginx sends: ${errors.slice(0, 5).join('; ')}`,
        });
      const batch = request.body as UsageBatch;
      // One batch of an instance at a time: a batch posted again while its first post is recorded waits for it.
      const previous = queues.get(batch.instance) ?? Promise.resolve();
      const done = previous.catch(() => {}).then(() => record(batch));
      queues.set(batch.instance, done);
      try {
        const outcome = await done;
        if (outcome === 'recorded') options.onBatch?.(batch);
        return { recorded: outcome === 'recorded', seq: batch.seq };
      } finally {
        if (queues.get(batch.instance) === done) queues.delete(batch.instance);
      }
    },
  );
  app.addHook('onClose', async () => {
    await Promise.allSettled(queues.values());
  });
}
