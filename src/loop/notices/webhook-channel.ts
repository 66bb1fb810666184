import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ClientWebhook } from '../../kernel/ports/index.ts';
import { DeliveryFailure, type NoticeChannel } from './channel.ts';

/**
 * The Standard Webhooks signature, keyed with the secret's base64 part.
 *
 * @internal exported for the tests
 */
export function signWebhook(options: { secret: string; id: string; timestamp: number; body: string }): string {
  const key = Buffer.from(options.secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${options.id}.${options.timestamp}.${options.body}`).digest('base64')}`;
}

export interface WebhookChannelOptions {
  /**
   * The webhook's URL and Standard Webhooks secret (`whsec_<base64>`), read at each delivery (a
   * changed URL applies at once).
   */
  target: (clientId: string, webhookId: string) => Promise<ClientWebhook | undefined>;
  now: () => number;
  /** The whole delivery, connect to last byte of the answer, at most this long. */
  timeoutMs: number;
  /** Resolves host names and refuses disallowed addresses on the socket actually used. */
  lookup: LookupFunction;
  /**
   * Checks the URL again before each delivery and throws when it is no longer allowed. Node never
   * calls `lookup` for an IP literal, so a literal saved under an allowance that has since been
   * removed is caught only here.
   */
  checkUrl: (url: string) => Promise<unknown>;
}

/**
 * Webhooks signed as the Standard Webhooks spec says. An overall deadline per delivery, so a
 * receiver that trickles its answer holds one delivery slot for that long at most.
 */
export function createWebhookChannel(options: WebhookChannelOptions): NoticeChannel {
  return {
    name: 'webhook',
    recipients: (client) => client.webhooks.map((hook) => ({ recipient: hook.id, subscribed: true })),
    async deliver({ id, recipient, payload }) {
      const target = await options.target(payload.data.client.id, recipient);
      if (!target) throw new DeliveryFailure({ transient: false, reason: `webhook ${recipient} no longer exists` });
      const refused = await options.checkUrl(target.url).then(
        () => undefined,
        (error: { detail?: string; message?: string }) => error.detail ?? error.message ?? '',
      );
      if (refused !== undefined) throw new DeliveryFailure({ transient: false, reason: refused });
      const body = JSON.stringify(payload);
      // Seconds of the wall clock at sending: receivers reject stale timestamps.
      const timestamp = Math.floor(options.now() / 1000);
      let status: number;
      try {
        status = await post({
          url: target.url,
          body,
          timeoutMs: options.timeoutMs,
          lookup: options.lookup,
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signWebhook({ secret: target.secret, id, timestamp, body }),
            'user-agent': 'Versionary-Notices/1',
          },
        });
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        // A target refused by the address check stays refused: retrying cannot help.
        throw new DeliveryFailure({
          transient: e.code !== 'EWEBHOOKTARGET',
          reason: `${e.code ?? e.name}: ${e.message}`.slice(0, 500),
        });
      }
      if (status >= 200 && status < 300) return;
      const transient = status >= 500 || status === 429 || status === 408;
      throw new DeliveryFailure({ transient, reason: `HTTP ${status}` });
    },
  };
}

/** POST and resolve with the status once the answer has ended; the body is drained and ignored. */
function post(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  lookup: LookupFunction;
}): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(options.url);
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      { method: 'POST', headers: options.headers, lookup: options.lookup },
      (response) => {
        response.resume();
        response.on('end', () => {
          clearTimeout(deadline);
          resolve(response.statusCode ?? 0);
        });
        response.on('error', reject);
      },
    );
    // An overall deadline, not an idle timeout: a receiver sending a byte every few seconds never
    // goes idle, and would hold the delivery for as long as it likes.
    // The error is built when the deadline passes: most deliveries never need it.
    const late = () =>
      Object.assign(new Error(`the delivery did not finish within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' });
    const deadline = setTimeout(() => request.destroy(late()), options.timeoutMs);
    deadline.unref();
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end(options.body);
  });
}
