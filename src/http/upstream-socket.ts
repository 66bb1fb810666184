import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';

type WriteCallback = (error?: Error | null) => void;

/** How long a failed write waits at most for the connection's read side to close. */
const holdMs = 1000;

/**
 * Open upstream connections as `connector` does, on sockets that keep a failed write from
 * closing them before what the upstream sent has been read.
 *
 * An upstream that answers a request (a 413, a 401) before reading its body, and closes, makes
 * its kernel reset the connection; the answer is already in the gateway's receive buffer. The
 * gateway's next write of the body fails (`EPIPE`, `ECONNRESET`), and Node destroys a socket
 * whose write fails at once: the answer, never read, was lost, and the client got a 502. Here
 * the failed write reports its error only once the socket has closed (undici closes it when the
 * answer is read, or when the read side ends without one), or after {@link holdMs}: the answer
 * is read first. A connection that answered nothing still fails, as before, with the error.
 */
export function readingBeforeWriteErrors(connector: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connector(options, (...args) => {
      if (args[1]) holdWriteErrors(args[1]);
      callback(...args);
    });
}

function holdWriteErrors(socket: Socket): void {
  const hold =
    (callback: WriteCallback): WriteCallback =>
    (error) => {
      if (!error || socket.destroyed) return callback(error);
      const release = () => {
        clearTimeout(timer);
        socket.off('close', release);
        callback(error);
      };
      const timer = setTimeout(release, holdMs);
      socket.once('close', release);
    };
  // `_write` and `_writev` are how a Writable hands its chunks over: wrapped on this socket alone.
  const write = socket._write.bind(socket);
  socket._write = (chunk, encoding, callback: WriteCallback) => write(chunk, encoding, hold(callback));
  const writev = socket._writev?.bind(socket);
  if (writev) socket._writev = (chunks, callback: WriteCallback) => writev(chunks, hold(callback));
}
