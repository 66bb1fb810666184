import nodemailer from 'nodemailer';
import type { NoticeChannel } from './channel.ts';
import { DeliveryFailure } from './channel.ts';
import { renderNoticeEmail } from './render-email.ts';

/**
 * Email over SMTP with nodemailer, to each of a client's contacts (an opted-out contact's rows
 * are kept as `unsubscribed`). SMTP 4xx answers and network failures are transient; 5xx answers
 * are final. Each message carries RFC 8058 one-click unsubscribe headers. Without `smtp`, the
 * channel plans notices and keeps them waiting for a mail transport.
 */
export function createEmailChannel(options: {
  smtp?: { url: string; from: string };
  unsubscribeUrl: (clientId: string, email: string) => string;
  timeoutMs?: number;
}): NoticeChannel {
  const recipients: NoticeChannel['recipients'] = (client) =>
    client.contacts.map((contact) => ({ recipient: contact.email.toLowerCase(), subscribed: contact.subscribed }));
  const { smtp } = options;
  if (!smtp) return { name: 'email', recipients };
  const transport = nodemailer.createTransport(withTimeouts(smtp.url, options.timeoutMs ?? 30_000));
  return {
    name: 'email',
    recipients,
    async deliver({ id, recipient, payload }) {
      const link = options.unsubscribeUrl(payload.data.client.id, recipient);
      const rendered = renderNoticeEmail({ payload, unsubscribeUrl: link });
      try {
        await transport.sendMail({
          from: smtp.from,
          to: recipient,
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
          headers: {
            'List-Unsubscribe': `<${link}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            'X-Versionary-Notice': id,
          },
        });
      } catch (error) {
        const e = error as { responseCode?: number; message?: string; code?: string };
        const code = e.responseCode;
        throw new DeliveryFailure({
          transient: code === undefined || code < 500,
          reason: `${code ? `SMTP ${code}` : (e.code ?? 'error')}: ${e.message ?? String(error)}`.slice(0, 500),
        });
      }
    },
    close: async () => {
      transport.close();
    },
  };
}

/** nodemailer reads its timeouts from the URL's query as well as from options. */
function withTimeouts(url: string, ms: number): string {
  const u = new URL(url);
  for (const key of ['connectionTimeout', 'greetingTimeout', 'socketTimeout'])
    if (!u.searchParams.has(key)) u.searchParams.set(key, String(ms));
  return u.toString();
}
