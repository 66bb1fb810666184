import type { Clock } from '../../core/clock/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { ClientStore, NoticeChannelName, NoticeStore, UsageStore } from '../../kernel/ports/index.ts';
import type { NoticeChannel } from './channel.ts';
import type { PayloadBuilder } from './gather.ts';
import type { NoticesSettings } from './settings.ts';

/** Why a planned notice wrote no outbox row (described in `PassReportSchema`). */
export type SkipReason = 'no-client' | 'no-contact' | 'already-enqueued';

export interface SkippedNotice {
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
