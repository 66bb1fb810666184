// A local SMTP server in its own process for the notices benchmark: accepts and counts messages.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  maxClients: 100,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received++;
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.server.address() as AddressInfo).port });
});
process.on('message', (message: string) => {
  if (message === 'count') process.send?.({ received });
  if (message === 'stop') server.close(() => process.exit(0));
});
