import { DAY_MS } from '../../core/lifecycle/index.ts';
import { planNotices, type DueNotice } from '../../core/notices/index.ts';
import type { Client, ClientElementUsageRow, ClientUsageRow, NewOutboxNotice } from '../../kernel/ports/index.ts';
import type { NoticeChannel } from './channel.ts';
import { noticeSubjects, toClientUsage, toElementUsage } from './gather.ts';
import type { NoticeWorkerOptions, PassReport, SkippedNotice, SkipReason } from './worker-types.ts';

/** What planning did: the notices due, the outbox rows written, and the notices that wrote none. */
export type PlanReport = Pick<PassReport, 'planned' | 'enqueued' | 'skipped'>;

/** The usage a pass plans from, also the evidence its payloads quote. */
interface PlanUsage {
  rows: readonly ClientUsageRow[];
  elementRows: readonly ClientElementUsageRow[];
  now: number;
}

/** Plan the notices due now and write each one's outbox rows, one notice at a time. */
export async function planOutbox(options: NoticeWorkerOptions): Promise<PlanReport> {
  const { settings, clock } = options;
  const now = clock.now();
  const rows = await options.usage.byClient({ since: now - settings.lookbackDays * DAY_MS });
  // Element usage is all-time totals, a row per (client, element, version, endpoint): the planner's lookback reads its last call.
  const elementRows = options.runtime.elements().length > 0 ? await options.usage.elementCalls() : [];
  const due = planNotices({
    subjects: noticeSubjects(options.runtime),
    brownouts: await options.brownouts(),
    usage: [...toClientUsage(rows), ...toElementUsage(elementRows)],
    recorded: await options.notices.recorded(),
    settings,
    clock,
    extensionOf: (clientId, subject) =>
      options.runtime.extensionOf(clientId, {
        version: subject.version,
        ...(subject.endpoint ? { endpoint: subject.endpoint } : {}),
      }),
  });
  if (due.length === 0) return { planned: 0, enqueued: 0, skipped: [] };
  const clients = new Map(
    (await options.clients.findMany([...new Set(due.map((d) => d.clientId))])).map((c) => [c.id, c]),
  );
  let enqueued = 0;
  const skipped: SkippedNotice[] = [];
  for (const notice of due) {
    const client = clients.get(notice.clientId);
    // Calls made without a client (a bare key, an IP) have no one to tell.
    const written = client
      ? await enqueueNotice(options, { notice, client, usage: { rows, elementRows, now } })
      : 'no-client';
    if (typeof written === 'number') enqueued += written;
    else skipped.push({ subject: notice.subject, client: notice.clientId, reason: written });
  }
  return { planned: due.length, enqueued, skipped };
}

/** Write one notice's rows, one per channel and recipient: how many were written, or why none was. */
async function enqueueNotice(
  options: NoticeWorkerOptions,
  { notice, client, usage }: { notice: DueNotice; client: Client; usage: PlanUsage },
): Promise<number | Exclude<SkipReason, 'no-client'>> {
  const { rows, elementRows, now } = usage;
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
  const outbox = outboxRows(options.channels, client, base);
  if (outbox.length === 0) return 'no-contact';
  // One notice at a time, so a notice whose rows were all there already is named as such.
  const written = await options.notices.enqueue(outbox);
  return written === 0 ? 'already-enqueued' : written;
}

/** A notice's outbox rows: one per channel and recipient, held back for a recipient who unsubscribed. */
export function outboxRows(
  channels: readonly NoticeChannel[],
  client: Client,
  base: Omit<NewOutboxNotice, 'channel' | 'recipient' | 'status'>,
): NewOutboxNotice[] {
  const outbox: NewOutboxNotice[] = [];
  for (const channel of channels) {
    for (const { recipient, subscribed } of channel.recipients(client))
      outbox.push({ ...base, channel: channel.name, recipient, status: subscribed ? 'pending' : 'unsubscribed' });
  }
  return outbox;
}
