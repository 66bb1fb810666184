// A local SMTP catcher for trying notices: prints every message it receives (headers and text part).
// Usage: npm run smtp-catcher [-- PORT]   (default 2525)
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const port = Number(process.argv[2] ?? 2525);
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream).then((mail) => {
      const unsubscribe = mail.headerLines
        .filter((h) => h.key.startsWith('list-unsubscribe'))
        .map((h) => h.line.replace(/\r\n\s+/g, ' '));
      process.stdout.write(
        [
          `--- mail to ${session.envelope.rcptTo.map((r) => r.address).join(', ')}`,
          `Subject: ${mail.subject ?? ''}`,
          ...unsubscribe,
          `(HTML part: ${typeof mail.html === 'string' ? mail.html.length : 0} characters)`,
          '',
          mail.text ?? '',
          '',
        ].join('\n'),
      );
      callback();
    }, callback);
  },
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`SMTP catcher on smtp://127.0.0.1:${port}\n`));
