import type { NoticeChannel } from './channel.ts';
import type { OutboxNotice } from '../../kernel/ports/index.ts';
import { deliverNotice, type DeliveryContext } from './deliver-notice.ts';
import type { PassReport } from './worker-types.ts';

/** The pool's limits on top of one delivery's: how many at once, and how long a claim holds. */
export interface DeliveryPoolOptions extends DeliveryContext {
  /** The channels that deliver, by name (those with a transport). */
  byName: ReadonlyMap<string, NoticeChannel>;
  concurrency: number;
  leaseMs: number;
}

/**
 * Deliver every row due, counting the outcomes into `report`. A pool of `concurrency` deliveries
 * that refills from the outbox as each one ends, rather than batch by batch: a slow receiver holds
 * one slot (for the channel's deadline at most), and every other notice goes out meanwhile through
 * the others.
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
