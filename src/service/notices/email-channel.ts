import nodemailer from 'nodemailer';
import type { NoticeChannel } from './channel.ts';
import { DeliveryFailure } from './channel.ts';
import { renderNoticeEmail } from './render-email.ts';

/**
 * Email over SMTP with nodemailer. SMTP 4xx answers and network failures are transient; 5xx
 * answers are final. Each message carries RFC 8058 one-click unsubscribe headers.
 *
 * @example
 * ```ts
 * const email = createEmailChannel({ url: 'smtp://127.0.0.1:2525', from: 'notices@example.com', unsubscribeUrl });
 * ```
 */
export function createEmailChannel(options: { url: string; from: string; unsubscribeUrl: (clientId: string, email: string) => string; timeoutMs?: number }): NoticeChannel {
  const timeout = options.timeoutMs ?? 30_000;
  const transport = nodemailer.createTransport(withTimeouts(options.url, timeout));
  return {
    name: 'email',
    async deliver({ id, recipient, payload }) {
      const link = options.unsubscribeUrl(payload.data.client.id, recipient);
      const rendered = renderNoticeEmail({ payload, unsubscribeUrl: link });
      try {
        await transport.sendMail({
          from: options.from, to: recipient, subject: rendered.subject, text: rendered.text, html: rendered.html,
          headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'X-Versionary-Notice': id },
        });
      } catch (error) {
        const e = error as { responseCode?: number; message?: string; code?: string };
        const code = e.responseCode;
        throw new DeliveryFailure({ transient: code === undefined || code < 500, reason: `${code ? `SMTP ${code}` : (e.code ?? 'error')}: ${e.message ?? String(error)}`.slice(0, 500) });
      }
    },
    close: async () => { transport.close(); },
  };
}

/** nodemailer reads its timeouts from the URL's query as well as from options. */
function withTimeouts(url: string, ms: number): string {
  const u = new URL(url);
  for (const key of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) if (!u.searchParams.has(key)) u.searchParams.set(key, String(ms));
  return u.toString();
}
