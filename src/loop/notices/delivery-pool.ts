import type { Clock } from '../../core/clock/index.ts';
import type { NoticePayload } from '../../core/notices/index.ts';
import type { NoticeStore, OutboxNotice } from '../../kernel/ports/index.ts';
import { DeliveryFailure, type NoticeChannel } from './channel.ts';
import type { NoticesSettings } from './settings.ts';
import type { PassReport } from './plan-outbox.ts';

/** The pool's limits on top of one delivery's: how many at once, and how long a claim holds. */
export interface DeliveryPoolOptions extends DeliveryContext {
  /** The channels that deliver, by name (those with a transport). */
  byName: ReadonlyMap<string, NoticeChannel>;
  concurrency: number;
  leaseMs: number;
}

/**
 * Deliver every row due through a pool that refills as each delivery ends, not batch by batch: a
 * slow receiver holds one slot (for the deadline at most) while the others go on.
 */
export async function deliverDue(options: DeliveryPoolOptions, report: PassReport): Promise<void> {
  const { notices, owner, clock, leaseMs, concurrency, byName } = options;
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
      for (let row = await take(); row; row = await take())
        report[await deliverNotice(options, { row, channel: byName.get(row.channel)! })]++;
    }),
  );
}

/** What one delivery needs: the outbox it reports to under this worker's lease, and its limits. */
interface DeliveryContext {
  notices: NoticeStore;
  owner: string;
  clock: Clock;
  settings: NoticesSettings;
  deliveryTimeoutMs: number;
}

/** Deliver one claimed row through its channel, within the deadline, and record how it ended. */
async function deliverNotice(
  context: DeliveryContext,
  { row, channel }: { row: OutboxNotice; channel: NoticeChannel },
): Promise<'sent' | 'retrying' | 'failed'> {
  const { notices, owner, clock, deliveryTimeoutMs } = context;
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
    return recordFailure(context, { row, failure });
  }
}

/** A failed delivery: given up (permanent, or out of attempts) or retried later with backoff. */
async function recordFailure(
  context: DeliveryContext,
  { row, failure }: { row: OutboxNotice; failure: DeliveryFailure },
): Promise<'retrying' | 'failed'> {
  const { notices, owner, clock, settings } = context;
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
  const nextAttemptAt = at + Math.round(delay / 2 + Math.random() * (delay / 2));
  await notices.complete({
    id: row.id,
    owner,
    outcome: { status: 'retrying', at, nextAttemptAt, error: failure.message },
  });
  return 'retrying';
}

/** Run `work`, aborting it and rejecting with `failure()` after `ms`; the timer ends with the race. */
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
