import { DAY_MS } from '../../core/lifecycle/index.ts';
import { planNotices, type NoticeIdentity, type NoticePayload } from '../../core/notices/index.ts';
import type { Client, Storage } from '../../kernel/ports/index.ts';
import type { BrownoutCache } from './brownout-guard.ts';
import type { NoticeChannel } from './channel.ts';
import { noticeSubjects, type PayloadBuilder } from './gather.ts';
import type { Clock } from '../../core/clock/index.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { PassReport } from './schemas.ts';
import type { NoticesSettings } from './settings.ts';

export interface PlanOptions {
  storage: Pick<Storage, 'notices' | 'clients' | 'usage'>;
  runtime: LifecycleRuntime;
  payloads: PayloadBuilder;
  channels: NoticeChannel[];
  settings: NoticesSettings;
  brownouts: BrownoutCache;
  clock: Clock;
}

/** Plan the notices due now and write each one's outbox rows, one notice at a time. */
export async function planOutbox(options: PlanOptions): Promise<Pick<PassReport, 'planned' | 'enqueued' | 'skipped'>> {
  const { settings, clock } = options;
  const now = clock.now();
  const { notices, usage, clients } = options.storage;
  const rows = await usage.byClient({ since: now - settings.lookbackDays * DAY_MS });
  // Element usage is all-time totals, a row per (client, element, version, endpoint): the planner's lookback reads its last call.
  const elementRows = options.runtime.elements().length > 0 ? await usage.elementCalls() : [];
  await options.brownouts.refresh();
  const due = planNotices({
    subjects: noticeSubjects(options.runtime),
    brownouts: options.brownouts.all(),
    // A row per key: the planner reads each client's latest call. Element rows carry their element,
    // so they count for its subject only.
    usage: [...rows, ...elementRows],
    recorded: await notices.recorded(),
    settings,
    clock,
    extensionOf: (clientId, subject) => options.runtime.extensionOf(clientId, subject),
  });
  if (due.length === 0) return { planned: 0, enqueued: 0, skipped: [] };
  const found = new Map((await clients.findMany([...new Set(due.map((d) => d.clientId))])).map((c) => [c.id, c]));
  let enqueued = 0;
  const skipped: PassReport['skipped'] = [];
  for (const notice of due) {
    const client = found.get(notice.clientId);
    // Calls made without a client (a bare key, an IP) have no one to tell.
    const written = client
      ? await enqueueNotice(options, {
          notice,
          client,
          payload: await options.payloads.build({ notice, client, rows, elementRows }),
          now,
        })
      : 'no-client';
    if (typeof written === 'number') enqueued += written;
    else skipped.push({ subject: notice.subject, client: notice.clientId, reason: written });
  }
  return { planned: due.length, enqueued, skipped };
}

/**
 * Write a notice's outbox rows, one per channel and recipient, held back for a recipient who
 * unsubscribed: how many were written, or why none was.
 */
export async function enqueueNotice(
  options: Pick<PlanOptions, 'channels' | 'storage'>,
  input: { notice: NoticeIdentity; client: Client; payload: NoticePayload; now: number },
): Promise<number | 'no-contact' | 'already-enqueued'> {
  const { notice, client, now } = input;
  const payload = JSON.stringify(input.payload);
  const outbox = options.channels.flatMap((channel) =>
    channel.recipients(client).map(({ recipient, subscribed }) => ({
      clientId: client.id,
      subject: notice.subject,
      kind: notice.kind,
      step: notice.step,
      sunsetAt: notice.sunsetAt,
      payload,
      createdAt: now,
      channel: channel.name,
      recipient,
      status: subscribed ? ('pending' as const) : ('unsubscribed' as const),
    })),
  );
  if (outbox.length === 0) return 'no-contact';
  // One notice at a time, so a notice whose rows were all there already is named as such.
  const written = await options.storage.notices.enqueue(outbox);
  return written === 0 ? 'already-enqueued' : written;
}
