import type { Transporter } from 'nodemailer';
import { DeliveryFailure, type NoticeChannel } from './channel.ts';
import { renderNoticeEmail } from './render-email.ts';

/**
 * Email over SMTP with nodemailer: 4xx answers and network failures are transient, 5xx final.
 * Without `smtp`, notices wait for a mail transport. With the `log:` URL (development) each message
 * is printed instead, and nodemailer is never loaded: only an `smtp://` URL needs it installed.
 */
export function createEmailChannel(options: {
  smtp?: { url: string; from: string };
  unsubscribeUrl: (clientId: string, email: string) => string;
  timeoutMs: number;
}): NoticeChannel {
  const recipients: NoticeChannel['recipients'] = (client) =>
    client.contacts.map((contact) => ({ recipient: contact.email.toLowerCase(), subscribed: contact.subscribed }));
  const { smtp } = options;
  if (!smtp) return { name: 'email', recipients };
  let transport: Promise<Transporter> | undefined;
  const send = async (message: MailMessage) => {
    if (smtp.url === logTransportUrl) return void process.stdout.write(formatLogged(message));
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(withTimeouts(smtp.url, options.timeoutMs)),
    );
    await (await transport).sendMail(message);
  };
  return {
    name: 'email',
    recipients,
    async deliver({ id, recipient, payload }) {
      const link = options.unsubscribeUrl(payload.data.client.id, recipient);
      try {
        await send({
          from: smtp.from,
          to: recipient,
          ...renderNoticeEmail({ payload, unsubscribeUrl: link }),
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
      (await transport?.catch(() => undefined))?.close();
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

/** `VERSIONARY_SMTP_URL=log:`: print each message instead of sending it (development). */
const logTransportUrl = 'log:';

type MailMessage = Record<'from' | 'to' | 'subject' | 'text' | 'html', string> & { headers: Record<string, string> };

function formatLogged(message: MailMessage): string {
  const rule = '-'.repeat(72);
  const headers = Object.entries(message.headers).map(([name, value]) => `${name}: ${value}`);
  return `${rule}\nversionary mail (VERSIONARY_SMTP_URL=log:, not sent)\nFrom: ${message.from}\nTo: ${message.to}\nSubject: ${message.subject}\n${headers.join('\n')}\n\n${message.text.trimEnd()}\n${rule}\n`;
}
