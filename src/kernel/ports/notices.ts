import type { Brownout, NoticeKind, RecordedNotice } from '../../core/notices/index.ts';
import type { Page, PageOptions } from './users.ts';

/**
 * How a notice travels: the name of a channel (`email`, `webhook`, or one an app adds), lower-case
 * letters, digits and hyphens. Stored with each outbox row, so a new channel needs no migration.
 */
export type NoticeChannelName = string;

/**
 * Delivery states of an outbox row. `pending` and `retrying` rows are claimed by workers;
 * the other three are final. Every status, for validation and docs.
 */
export const outboxStatuses = ['pending', 'sent', 'retrying', 'failed', 'unsubscribed'] as const;
type OutboxStatus = (typeof outboxStatuses)[number];

/** A notice to write to the outbox: one per channel and recipient. */
interface NewOutboxNotice {
  clientId: string;
  subject: string;
  kind: NoticeKind;
  step: string;
  sunsetAt: number;
  channel: NoticeChannelName;
  /** Whom the channel delivers to: an email address, a webhook id, or what another channel takes. */
  recipient: string;
  /** What the message needs (the due notice and its evidence), as JSON, fixed when planned. */
  payload: string;
  /** `unsubscribed` for a contact that opted out: kept, so the record shows why nothing went. */
  status: 'pending' | 'unsubscribed';
  createdAt: number;
}

/** A row of the outbox. */
export interface OutboxNotice extends Omit<NewOutboxNotice, 'status'> {
  id: number;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: number;
  updatedAt: number;
  sentAt: number | null;
}

/** What became of one delivery attempt. */
type DeliveryOutcome =
  | { status: 'sent'; at: number }
  | { status: 'retrying'; at: number; nextAttemptAt: number; error: string }
  | { status: 'failed'; at: number; error: string }
  | { status: 'unsubscribed'; at: number };

/**
 * The notice outbox. Rows are unique per (client, subject, kind, step, sunset, channel,
 * recipient), so planning twice writes once; workers claim due rows under a lease, so two
 * instances on one database never hold the same row at once.
 */
export interface NoticeStore {
  /** Insert the rows not already there; returns how many were new. */
  enqueue(rows: readonly NewOutboxNotice[]): Promise<number>;
  /** One entry per planned notice (across channels and recipients), for the planner. */
  recorded(): Promise<RecordedNotice[]>;
  /** Lease up to `limit` pending or retrying rows whose next attempt is due, for these channels. */
  claim(options: {
    owner: string;
    now: number;
    leaseMs: number;
    limit: number;
    channels: readonly NoticeChannelName[];
  }): Promise<OutboxNotice[]>;
  /** Record an attempt's outcome and release the lease; false when the lease was lost. */
  complete(options: { id: number; owner: string; outcome: DeliveryOutcome }): Promise<boolean>;
  /** Mark the unsent rows of one recipient unsubscribed; returns how many. */
  unsubscribe(options: { clientId: string; recipient: string; at: number }): Promise<number>;
  list(options: PageOptions & Partial<Pick<OutboxNotice, 'clientId' | 'status' | 'kind'>>): Promise<Page<OutboxNotice>>;
  get(id: number): Promise<OutboxNotice | undefined>;
  /** Planned brownouts, global and rehearsals, by start. */
  listBrownouts(): Promise<Brownout[]>;
  saveBrownout(brownout: Brownout & { createdAt: number }): Promise<void>;
  /** False when there was none. */
  deleteBrownout(id: string): Promise<boolean>;
}
