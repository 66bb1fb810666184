import { randomUUID } from 'node:crypto';
import { deliverDue, type DeliveryPoolOptions } from './delivery-pool.ts';
import { planOutbox, type NoticeWorker, type NoticeWorkerOptions, type PassReport } from './plan-outbox.ts';

/** How long a claimed row is this worker's before another may take it (at least; see `leaseMs` below). */
const minLeaseMs = 5 * 60_000;

/**
 * The notices worker. Rows are claimed under a lease, so instances on one database share the work
 * and never deliver one row twice at once; a dead worker's rows are claimed again when it ends.
 */
export function createNoticeWorker(options: NoticeWorkerOptions): NoticeWorker {
  const { settings } = options;
  const delivery = deliveryOptions(options);
  let running: Promise<PassReport> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const pass = async (): Promise<PassReport> => {
    await options.flushUsage();
    const { planned, enqueued, skipped } = await planOutbox(options);
    const report: PassReport = { planned, enqueued, sent: 0, retrying: 0, failed: 0, skipped };
    await deliverDue(delivery, report);
    if (report.planned + report.sent + report.failed > 0) options.log.info({ ...report }, 'notices pass');
    return report;
  };

  // One pass or delivery at a time: each waits for the one running.
  const serial = async (work: () => Promise<PassReport>): Promise<PassReport> => {
    while (running) await running.catch(() => undefined);
    running = work().finally(() => {
      running = undefined;
    });
    return running;
  };
  const deliverOnly = async (): Promise<PassReport> => {
    const report: PassReport = { planned: 0, enqueued: 0, sent: 0, retrying: 0, failed: 0, skipped: [] };
    await deliverDue(delivery, report);
    return report;
  };

  const worker: NoticeWorker = {
    runPass: () => serial(pass),
    deliverQueued: () => serial(deliverOnly),
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
    channels: () => [...delivery.byName.keys()],
  };
  return worker;
}

function deliveryOptions(options: NoticeWorkerOptions): DeliveryPoolOptions {
  const { deliveryTimeoutMs, concurrency } = options;
  return {
    notices: options.notices,
    owner: `worker-${randomUUID()}`,
    clock: options.clock,
    settings: options.settings,
    deliveryTimeoutMs,
    // Only channels with a transport deliver; every channel plans (email waits for SMTP).
    byName: new Map(options.channels.filter((c) => c.deliver).map((c) => [c.name, c])),
    concurrency,
    // A claimed row waits behind at most `concurrency` deliveries, each bounded by the deadline: the
    // lease outlasts that, so no other instance takes (and sends again) a row this one still holds.
    leaseMs: Math.max(minLeaseMs, 2 * (concurrency + 1) * deliveryTimeoutMs),
  };
}
