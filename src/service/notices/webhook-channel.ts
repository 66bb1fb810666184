import { createHmac } from 'node:crypto';
import type { NoticeChannel } from './channel.ts';
import { DeliveryFailure } from './channel.ts';

/** A webhook target, by id, with its Standard Webhooks secret (`whsec_<base64>`). */
export interface WebhookTarget {
  url: string;
  secret: string;
}

/**
 * The Standard Webhooks signature header value: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`,
 * keyed with the secret's base64 part.
 *
 * @example
 * ```ts
 * signWebhook({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id: 'msg_1', timestamp: 1700000000, body: '{}' });
 * ```
 */
export function signWebhook(options: { secret: string; id: string; timestamp: number; body: string }): string {
  const key = Buffer.from(options.secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${options.id}.${options.timestamp}.${options.body}`).digest('base64')}`;
}

/**
 * Webhooks signed as the Standard Webhooks spec says. HTTP 5xx, 429, timeouts and network
 * failures are transient; other 4xx are final.
 *
 * @example
 * ```ts
 * const hooks = createWebhookChannel({ target: async (id) => lookUp(id), now: () => Date.now() });
 * ```
 */
export function createWebhookChannel(options: { target: (clientId: string, webhookId: string) => Promise<WebhookTarget | undefined>; now: () => number; timeoutMs?: number }): NoticeChannel {
  return {
    name: 'webhook',
    async deliver({ id, recipient, payload }) {
      const target = await options.target(payload.data.client.id, recipient);
      if (!target) throw new DeliveryFailure({ transient: false, reason: `webhook ${recipient} no longer exists` });
      const body = JSON.stringify(payload);
      // Seconds of the wall clock at sending: receivers reject stale timestamps.
      const timestamp = Math.floor(options.now() / 1000);
      let response: Response;
      try {
        response = await fetch(target.url, {
          method: 'POST', redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs ?? 15_000), body,
          headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook({ secret: target.secret, id, timestamp, body }), 'user-agent': 'Versionary-Notices/1' },
        });
        await response.arrayBuffer().catch(() => undefined);
      } catch (error) {
        throw new DeliveryFailure({ transient: true, reason: `${(error as Error).name}: ${(error as Error).message}`.slice(0, 500) });
      }
      if (response.status >= 200 && response.status < 300) return;
      const transient = response.status >= 500 || response.status === 429 || response.status === 408;
      throw new DeliveryFailure({ transient, reason: `HTTP ${response.status}` });
    },
  };
}
