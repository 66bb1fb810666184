import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock/index.ts';
import { DAY_MS } from '../../core/lifecycle/index.ts';
import { planNotices, type Brownout, type NoticePayload } from '../../core/notices/index.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type {
  ClientStore,
  NewOutboxNotice,
  NoticeChannelName,
  NoticeStore,
  OutboxNotice,
  UsageStore,
} from '../../kernel/ports/index.ts';
import { DeliveryFailure, type NoticeChannel } from './channel.ts';
import { toElementUsage } from './gather-elements.ts';
import { noticeSubjects, toClientUsage, type PayloadBuilder } from './gather.ts';
import type { NoticesSettings } from './settings.ts';

/**
 * Why a planned notice wrote no outbox row: `no-client`, the calls were made without a registered
 * client (a key with no client, a token subject, an address), so no one can be told;
 * `no-contact`, the client has neither a contact email nor a webhook; `already-enqueued`, every
 * row it would write is in the outbox already (another instance planned it at the same moment).
 */
type SkipReason = 'no-client' | 'no-contact' | 'already-enqueued';

/** A planned notice that wrote no outbox row, and why. */
interface SkippedNotice {
  subject: string;
  client: string;
  reason: SkipReason;
}

/** What one pass did. */
interface PassReport {
  planned: number;
  enqueued: number;
  sent: number;
  retrying: number;
  failed: number;
  /** The planned notices that wrote no row (so `enqueued` does not count them), each with its reason. */
  skipped: SkippedNotice[];
}

/** Options for {@link createNoticeWorker}. */
export interface NoticeWorkerOptions {
  notices: NoticeStore;
  usage: Pick<UsageStore, 'byClient' | 'elementCalls'>;
  clients: Pick<ClientStore, 'findMany'>;
  runtime: LifecycleRuntime;
  payloads: PayloadBuilder;
  channels: NoticeChannel[];
  settings: NoticesSettings;
  brownouts: () => Promise<Brownout[]>;
  flushUsage: () => Promise<void>;
  clock: Clock;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** How many deliveries run at once; 8 by default. */
  concurrency?: number;
  /**
   * The overall deadline of one delivery, whatever its channel (10 000 ms by default): past it the
   * row is retried later and its slot goes to the next notice. Channels get an `AbortSignal` that
   * fires then; one that ignores it is simply no longer waited for.
   */
  deliveryTimeoutMs?: number;
  /** The wall clock for retry delays; tests pass the injected clock's. */
  random?: () => number;
}

/** Plans and delivers notices, on a timer and on request. */
export interface NoticeWorker {
  /** One pass: flush usage, plan, write the outbox, deliver what is due. Passes never overlap. */
  runPass(): Promise<PassReport>;
  start(): void;
  stop(): Promise<void>;
  /** Channels this instance can deliver through (those with a transport). */
  channels(): NoticeChannelName[];
}

/** How long a claimed row is this worker's before another may take it (at least; see `leaseMs` below). */
const minLeaseMs = 5 * 60_000;

/**
 * The notices worker. Each instance claims outbox rows under a lease, so several instances on one
 * database share the work and never deliver one row at once; a row whose worker died is claimed
 * again when its lease ends.
 */
export function createNoticeWorker(options: NoticeWorkerOptions): NoticeWorker {
  const { notices, settings, clock } = options;
  const owner = `worker-${randomUUID()}`;
  // Only channels with a transport deliver; every channel plans (email waits for SMTP).
  const byName = new Map(options.channels.filter((c) => c.deliver).map((c) => [c.name, c]));
  const random = options.random ?? Math.random;
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? 10_000;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  // A claimed row waits behind at most `concurrency` deliveries, each bounded by the deadline: the
  // lease outlasts that, so no other instance takes (and sends again) a row this one still holds.
  const leaseMs = Math.max(minLeaseMs, 2 * (concurrency + 1) * deliveryTimeoutMs);
  let running: Promise<PassReport> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const plan = async (): Promise<Pick<PassReport, 'planned' | 'enqueued' | 'skipped'>> => {
    const now = clock.now();
    const rows = await options.usage.byClient({ since: now - settings.lookbackDays * DAY_MS });
    // Element usage is all-time totals, a row per (client, element, version, endpoint): the planner's lookback reads its last call.
    const elementRows = options.runtime.elements().length > 0 ? await options.usage.elementCalls() : [];
    const due = planNotices({
      subjects: noticeSubjects(options.runtime),
      brownouts: await options.brownouts(),
      usage: [...toClientUsage(rows), ...toElementUsage(elementRows)],
      recorded: await notices.recorded(),
      settings,
      clock,
    });
    if (due.length === 0) return { planned: 0, enqueued: 0, skipped: [] };
    const clients = new Map(
      (await options.clients.findMany([...new Set(due.map((d) => d.clientId))])).map((c) => [c.id, c]),
    );
    let enqueued = 0;
    const skipped: SkippedNotice[] = [];
    const skip = (notice: { subject: string; clientId: string }, reason: SkipReason) =>
      skipped.push({ subject: notice.subject, client: notice.clientId, reason });
    for (const notice of due) {
      const client = clients.get(notice.clientId);
      // Calls made without a client (a bare key, an IP) have no one to tell.
      if (!client) {
        skip(notice, 'no-client');
        continue;
      }
      const payload = JSON.stringify(await options.payloads.build({ notice, client, rows, elementRows }));
      const base = {
        clientId: client.id,
        subject: notice.subject,
        kind: notice.kind,
        step: notice.step,
        sunsetAt: notice.sunsetAt,
        payload,
        createdAt: now,
      };
      const outbox: NewOutboxNotice[] = [];
      for (const channel of options.channels) {
        for (const { recipient, subscribed } of channel.recipients(client))
          outbox.push({ ...base, channel: channel.name, recipient, status: subscribed ? 'pending' : 'unsubscribed' });
      }
      if (outbox.length === 0) {
        skip(notice, 'no-contact');
        continue;
      }
      // One notice at a time, so a notice whose rows were all there already is named as such.
      const written = await notices.enqueue(outbox);
      if (written === 0) skip(notice, 'already-enqueued');
      enqueued += written;
    }
    return { planned: due.length, enqueued, skipped };
  };

  const deliverOne = async (row: OutboxNotice): Promise<'sent' | 'retrying' | 'failed'> => {
    const channel = byName.get(row.channel)!;
    try {
      await withDeadline({
        ms: deliveryTimeoutMs,
        failure: () =>
          new DeliveryFailure({
            transient: true,
            reason: `the ${row.channel} delivery did not finish within ${deliveryTimeoutMs} ms`,
          }),
        work: (signal) =>
          channel.deliver!({
            id: `ntc_${row.id}`,
            recipient: row.recipient,
            payload: JSON.parse(row.payload) as NoticePayload,
            signal,
          }),
      });
      await notices.complete({ id: row.id, owner, outcome: { status: 'sent', at: clock.now() } });
      return 'sent';
    } catch (error) {
      const failure =
        error instanceof DeliveryFailure
          ? error
          : new DeliveryFailure({ transient: true, reason: String((error as Error)?.message ?? error) });
      const at = clock.now();
      const attempts = row.attempts + 1;
      if (!failure.transient || attempts >= settings.maxAttempts) {
        await notices.complete({
          id: row.id,
          owner,
          outcome: {
            status: 'failed',
            at,
            error: failure.transient ? `gave up after ${attempts} attempts: ${failure.message}` : failure.message,
          },
        });
        return 'failed';
      }
      // Exponential backoff with jitter, so a recovering server is not hit by every worker at once.
      const delay = settings.retryBaseSeconds * 1000 * 2 ** (attempts - 1);
      const nextAttemptAt = at + Math.round(delay / 2 + random() * (delay / 2));
      await notices.complete({
        id: row.id,
        owner,
        outcome: { status: 'retrying', at, nextAttemptAt, error: failure.message },
      });
      return 'retrying';
    }
  };

  // A pool of `concurrency` deliveries that refills from the outbox as each one ends, rather than
  // batch by batch: a slow receiver holds one slot (for the channel's deadline at most), and every
  // other notice goes out meanwhile through the others.
  const deliver = async (report: PassReport): Promise<void> => {
    const channels = [...byName.keys()];
    const queue: OutboxNotice[] = [];
    let exhausted = false;
    let claiming: Promise<void> | undefined;
    // No more rows than slots at a time: a claimed row starts within one delivery's deadline, so a
    // pass held up by stuck receivers never keeps rows waiting past their lease.
    const refill = () =>
      (claiming ??= notices
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
        for (let row = await take(); row; row = await take()) report[await deliverOne(row)]++;
      }),
    );
  };

  const pass = async (): Promise<PassReport> => {
    await options.flushUsage();
    const { planned, enqueued, skipped } = await plan();
    const report: PassReport = { planned, enqueued, sent: 0, retrying: 0, failed: 0, skipped };
    await deliver(report);
    if (report.planned + report.sent + report.failed > 0) options.log.info({ ...report }, 'notices pass');
    return report;
  };

  const worker: NoticeWorker = {
    async runPass() {
      while (running) await running.catch(() => undefined);
      running = pass().finally(() => {
        running = undefined;
      });
      return running;
    },
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
    channels: () => [...byName.keys()],
  };
  return worker;
}

/**
 * Run `work`, and reject with `failure()` once `ms` have passed, aborting the signal it was given;
 * the timer ends with the race, so it never fires on work that finished in time.
 */
async function withDeadline(options: {
  ms: number;
  failure: () => Error;
  work: (signal: AbortSignal) => unknown;
}): Promise<void> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const failure = options.failure();
      abort.abort(failure);
      reject(failure);
    }, options.ms);
  });
  // Through a promise whatever the work returns (a plain-JS channel may return nothing).
  const work = Promise.resolve().then(() => options.work(abort.signal));
  // Work that settles after its deadline has no one listening: keep that from being an unhandled rejection.
  work.catch(() => undefined);
  try {
    await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
