// Preloaded (`--import`) into the external contract tools the tests run, so they cannot reach the
// network: every outgoing connection except loopback and local sockets is refused, and each
// attempt is appended to the file named by NO_NETWORK_LOG so the test can assert there were none.
import { appendFileSync } from 'node:fs';
import net from 'node:net';

const log = process.env.NO_NETWORK_LOG;
const loopback = (host) =>
  host === undefined || host === 'localhost' || /^127\./.test(host) || host === '::1' || host === '[::1]';
const connect = net.Socket.prototype.connect;

net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options =
    typeof first === 'object' && first !== null
      ? first
      : typeof first === 'number'
        ? { port: first, host: args[1] }
        : { path: first };
  if (options.path === undefined && !loopback(options.host)) {
    const target = `${options.host}:${options.port}`;
    if (log) appendFileSync(log, `${process.argv[1] ?? 'node'} tried ${target}\n`);
    const error = Object.assign(new Error(`network access refused in tests: ${target}`), { code: 'ECONNREFUSED' });
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};
