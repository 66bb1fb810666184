import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server for tests: keeps parsed messages; `failNext` answers the next mails with an SMTP error. */
export interface SmtpCatcher {
  url: string;
  messages: Array<ParsedMail & { envelopeTo: string[] }>;
  /** Queue answers for the next messages: an SMTP code to refuse with (421, 550, ...). */
  failNext(...codes: number[]): void;
  close(): Promise<void>;
}

/** Start an SMTP server on a free port. */
export async function startSmtpCatcher(options: { port?: number } = {}): Promise<SmtpCatcher> {
  const messages: SmtpCatcher['messages'] = [];
  const failures: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const code = failures.shift();
      simpleParser(stream).then((mail) => {
        if (code !== undefined)
          return callback(Object.assign(new Error(`refused with ${code}`), { responseCode: code }));
        messages.push(Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((r) => r.address) }));
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    failNext: (...codes) => {
      failures.push(...codes);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (bound, then released): connections to it are refused. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
