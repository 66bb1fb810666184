import type { NoticePayload } from '../../core/notices/index.ts';
import type { Client, NoticeChannelName } from '../../kernel/ports/index.ts';

/**
 * What a channel is given to deliver one notice to one recipient.
 *
 * @example
 * ```ts
 * async deliver({ id, recipient, payload }: NoticeDelivery) { await post(recipient, { id, type: payload.type }); }
 * ```
 */
export interface NoticeDelivery {
  /** Stable per outbox row: the webhook id and the email's idempotency reference. */
  id: string;
  recipient: string;
  payload: NoticePayload;
  /** Fires at the worker's overall deadline: stop then (the row is retried later). */
  signal?: AbortSignal;
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

/** One recipient a channel takes from a client. */
export interface ChannelRecipient {
  /** What the channel delivers to, as it is stored in the outbox (an address, a webhook id…). */
  recipient: string;
  /** False for a recipient who opted out: the row is kept as `unsubscribed`, and nothing is sent. */
  subscribed: boolean;
}

/**
 * A way to deliver notices. A channel declares its name, the recipients it takes from a client,
 * and how it delivers; the worker plans one outbox row per channel and recipient and knows no
 * channel by name. Email and webhooks are built in; an app adds its own (a chat tool, a pager)
 * through the `channels` option of the notices feature, with no migration.
 *
 * @example
 * ```ts
 * const teams: NoticeChannel = {
 *   name: 'teams',
 *   recipients: (client) => client.contacts.map((c) => ({ recipient: c.email, subscribed: c.subscribed })),
 *   deliver: async ({ recipient, payload }) => { await postToTeams(recipient, payload); },
 * };
 * ```
 */
export interface NoticeChannel {
  /** Lower-case letters, digits and hyphens, up to 32 characters: stored with each outbox row. */
  name: NoticeChannelName;
  recipients(client: Client): ChannelRecipient[];
  /**
   * Resolves when the recipient's server accepted it; throws {@link DeliveryFailure} otherwise.
   * Absent when this instance has no transport for the channel (email without SMTP): its notices
   * are planned and kept, waiting, and any instance with a transport delivers them.
   */
  deliver?(delivery: NoticeDelivery): Promise<void>;
  close?(): Promise<void>;
}

const namePattern = /^[a-z][a-z0-9-]{0,31}$/;

/** Check a list of channels at start: valid, unique names. */
export function checkChannels(channels: readonly NoticeChannel[]): string[] {
  return channels.flatMap(({ name }, i) => [
    ...(namePattern.test(name)
      ? []
      : [
          `notice channel "${name}": a name is lower-case letters, digits and hyphens, starting with a letter, up to 32 characters`,
        ]),
    ...(channels.findIndex((c) => c.name === name) < i ? [`notice channel "${name}" is registered twice`] : []),
  ]);
}
