import { DAY_MS } from '../../core/lifecycle/index.ts';
import { planNotices, type Brownout, type DueNotice } from '../../core/notices/index.ts';
import type {
  Client,
  ClientElementUsageRow,
  ClientStore,
  ClientUsageRow,
  NewOutboxNotice,
  NoticeChannelName,
  NoticeStore,
  UsageStore,
} from '../../kernel/ports/index.ts';
import type { NoticeChannel } from './channel.ts';
import { noticeSubjects, toClientUsage, toElementUsage, type PayloadBuilder } from './gather.ts';
import type { Clock } from '../../core/clock/index.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { NoticesSettings } from './settings.ts';

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

/** Why a planned notice wrote no outbox row (described in `PassReportSchema`). */
type SkipReason = 'no-client' | 'no-contact' | 'already-enqueued';

interface SkippedNotice {
  subject: string;
  client: string;
  reason: SkipReason;
}

export interface PassReport {
  planned: number;
  enqueued: number;
  sent: number;
  retrying: number;
  failed: number;
  /** The planned notices that wrote no row (so `enqueued` does not count them), each with its reason. */
  skipped: SkippedNotice[];
}

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
