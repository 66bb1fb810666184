import { randomUUID } from 'node:crypto';
import type { NoticePayload } from '../../core/notices/index.ts';
import type { NoticeChannelName, OutboxNotice } from '../../kernel/ports/index.ts';
import { DeliveryFailure, type NoticeChannel } from './channel.ts';
import { planOutbox, type PlanOptions } from './plan-outbox.ts';
import type { PassReport } from './schemas.ts';

/** How long a claimed row is this worker's before another may take it (at least; see `leaseMs` below). */
const minLeaseMs = 5 * 60_000;

export interface NoticeWorkerOptions extends PlanOptions {
  flushUsage: () => Promise<void>;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** How many deliveries run at once. */
  concurrency: number;
  /**
   * The overall deadline of one delivery, whatever its channel: past it the
   * row is retried later and its slot goes to the next notice. Channels get an `AbortSignal` that
   * fires then; one that ignores it is simply no longer waited for.
   */
  deliveryTimeoutMs: number;
}

/** Plans and delivers notices, on a timer and on request. */
export interface NoticeWorker {
  /** One pass: flush usage, plan, write the outbox, deliver what is due. Passes never overlap. */
  runPass(): Promise<PassReport>;
  /** Deliver the rows due now, planning nothing: what a notice queued outside a pass needs. */
  deliverQueued(): Promise<PassReport>;
  start(): void;
  stop(): Promise<void>;
  /** Channels this instance can deliver through (those with a transport). */
  channels(): NoticeChannelName[];
}

/** What the deliveries of one worker share: its lease on the rows it claims, and the channels that deliver (by name). */
type Deliveries = NoticeWorkerOptions & { owner: string; byName: ReadonlyMap<string, NoticeChannel>; leaseMs: number };

/**
 * The notices worker. Rows are claimed under a lease, so instances on one database share the work
 * and never deliver one row twice at once; a dead worker's rows are claimed again when it ends.
 */
export function createNoticeWorker(options: NoticeWorkerOptions): NoticeWorker {
  const { settings, concurrency, deliveryTimeoutMs } = options;
  const deliveries: Deliveries = {
    ...options,
    owner: `worker-${randomUUID()}`,
    // Only channels with a transport deliver; every channel plans (email waits for SMTP).
    byName: new Map(options.channels.filter((c) => c.deliver).map((c) => [c.name, c])),
    // A claimed row waits behind at most `concurrency` deliveries, each bounded by the deadline: the
    // lease outlasts that, so no other instance takes (and sends again) a row this one still holds.
    leaseMs: Math.max(minLeaseMs, 2 * (concurrency + 1) * deliveryTimeoutMs),
  };
  let running: Promise<PassReport> | undefined;
  let timer: NodeJS.Timeout | undefined;

  /** A pass (flush usage, plan, deliver), or with `plan` false the delivery of what is due alone. */
  const pass = async (plan: boolean): Promise<PassReport> => {
    if (plan) await options.flushUsage();
    const { planned, enqueued, skipped } = plan ? await planOutbox(options) : { planned: 0, enqueued: 0, skipped: [] };
    const report: PassReport = { planned, enqueued, sent: 0, retrying: 0, failed: 0, skipped };
    await deliverDue(deliveries, report);
    if (plan && report.planned + report.sent + report.failed > 0) options.log.info({ ...report }, 'notices pass');
    return report;
  };

  // One pass or delivery at a time: each waits for the one running.
  const serial = async (plan: boolean): Promise<PassReport> => {
    while (running) await running.catch(() => undefined);
    running = pass(plan).finally(() => {
      running = undefined;
    });
    return running;
  };

  const worker: NoticeWorker = {
    runPass: () => serial(true),
    deliverQueued: () => serial(false),
    start() {
      if (settings.intervalSeconds === 0 || timer) return;
      timer = setInterval(() => {
        if (running) return;
        worker.runPass().catch((error: unknown) => options.log.error({ err: error }, 'notices pass failed'));
      }, settings.intervalSeconds * 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      for (const c of options.channels) await c.close?.();
    },
    channels: () => [...deliveries.byName.keys()],
  };
  return worker;
}

/**
 * Deliver every row due through a pool that refills as each delivery ends, not batch by batch: a
 * slow receiver holds one slot (for the deadline at most) while the others go on.
 */
async function deliverDue(deliveries: Deliveries, report: PassReport): Promise<void> {
  const { storage, owner, clock, leaseMs, concurrency, byName } = deliveries;
  const channels = [...byName.keys()];
  const queue: OutboxNotice[] = [];
  let exhausted = false;
  let claiming: Promise<void> | undefined;
  // No more rows than slots at a time: a claimed row starts within one delivery's deadline, so a
  // pass held up by stuck receivers never keeps rows waiting past their lease.
  const refill = () =>
    (claiming ??= storage.notices
      .claim({ owner, now: clock.now(), leaseMs, limit: concurrency, channels })
      .then((rows) => {
        queue.push(...rows);
        if (rows.length === 0) exhausted = true;
      })
      .finally(() => {
        claiming = undefined;
      }));
  const take = async (): Promise<OutboxNotice | undefined> => {
    while (queue.length === 0 && !exhausted) await refill();
    return queue.shift();
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let row = await take(); row; row = await take()) report[await deliverNotice(deliveries, row)]++;
    }),
  );
}

/**
 * Deliver one claimed row through its channel, within the deadline, and record how it ended: sent,
 * given up (permanent, or out of attempts) or retried later with backoff.
 */
async function deliverNotice(deliveries: Deliveries, row: OutboxNotice): Promise<'sent' | 'retrying' | 'failed'> {
  const { owner, clock, deliveryTimeoutMs, settings } = deliveries;
  const { notices } = deliveries.storage;
  let failure: DeliveryFailure;
  try {
    const reason = `the ${row.channel} delivery did not finish within ${deliveryTimeoutMs} ms`;
    await withDeadline(
      deliveryTimeoutMs,
      () => new DeliveryFailure({ transient: true, reason }),
      (signal) =>
        deliveries.byName.get(row.channel)!.deliver!({
          id: `ntc_${row.id}`,
          recipient: row.recipient,
          payload: JSON.parse(row.payload) as NoticePayload,
          signal,
        }),
    );
    await notices.complete({ id: row.id, owner, outcome: { status: 'sent', at: clock.now() } });
    return 'sent';
  } catch (error) {
    failure =
      error instanceof DeliveryFailure
        ? error
        : new DeliveryFailure({ transient: true, reason: String((error as Error)?.message ?? error) });
  }
  const at = clock.now();
  const attempts = row.attempts + 1;
  if (!failure.transient || attempts >= settings.maxAttempts) {
    const error = failure.transient ? `gave up after ${attempts} attempts: ${failure.message}` : failure.message;
    await notices.complete({ id: row.id, owner, outcome: { status: 'failed', at, error } });
    return 'failed';
  }
  // Exponential backoff with jitter, so a recovering server is not hit by every worker at once.
  const delay = settings.retryBaseSeconds * 1000 * 2 ** (attempts - 1);
  const nextAttemptAt = at + Math.round(delay / 2 + Math.random() * (delay / 2));
  const outcome = { status: 'retrying' as const, at, nextAttemptAt, error: failure.message };
  await notices.complete({ id: row.id, owner, outcome });
  return 'retrying';
}

/** Run `work`, aborting it and rejecting with `failure()` after `ms` (built only then); the timer ends with the race. */
async function withDeadline(ms: number, failure: () => Error, work: (signal: AbortSignal) => unknown): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(failure()), ms);
  const timedOut = new Promise<never>((_resolve, reject) => {
    abort.signal.addEventListener('abort', () => reject(abort.signal.reason as Error));
  });
  // Through a promise whatever the work returns (a plain-JS channel may return nothing).
  const working = Promise.resolve().then(() => work(abort.signal));
  // Work that settles after its deadline has no one listening: keep that from being an unhandled rejection.
  working.catch(() => undefined);
  try {
    await Promise.race([working, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
