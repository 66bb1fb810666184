import type { NoticePayload } from '../../core/notices/index.ts';
import type { NoticeChannelName } from '../ports/index.ts';

/** What a channel is given to deliver one notice to one recipient. */
export interface NoticeDelivery {
  /** Stable per outbox row: the webhook id and the email's idempotency reference. */
  id: string;
  recipient: string;
  payload: NoticePayload;
}

/**
 * A failed delivery. `transient` ones are retried with backoff (connection refused, timeout,
 * SMTP 4xx, HTTP 5xx or 429); the others are final (SMTP 5xx, HTTP 4xx).
 *
 * @example
 * ```ts
 * throw new DeliveryFailure({ transient: true, reason: 'SMTP 421 try later' });
 * ```
 */
export class DeliveryFailure extends Error {
  readonly transient: boolean;
  constructor(options: { transient: boolean; reason: string }) {
    super(options.reason);
    this.name = 'DeliveryFailure';
    this.transient = options.transient;
  }
}

/**
 * A way to deliver notices: email, webhooks, or a test double in unit tests.
 *
 * @example
 * ```ts
 * const channel: NoticeChannel = { name: 'email', deliver: async (d) => { await send(d); } };
 * ```
 */
export interface NoticeChannel {
  name: NoticeChannelName;
  /** Resolves when the recipient's server accepted it; throws {@link DeliveryFailure} otherwise. */
  deliver(delivery: NoticeDelivery): Promise<void>;
  close?(): Promise<void>;
}
