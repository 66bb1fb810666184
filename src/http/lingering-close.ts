import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Options for {@link installLingeringClose}. */
export interface LingeringCloseOptions {
  /** How long an unread body is drained after the answer went out; 5 s by default. */
  lingerMs?: number;
}

/**
 * Let a client that is still uploading read the answer it was given early (a 413 for an oversized
 * body, a 401 before the body was read). Fastify answers such requests with `Connection: close`,
 * and Node then destroys the socket as soon as the answer is written: the client's next write
 * meets a reset, and the kernel drops the unread answer with it (`EPIPE`/`ECONNRESET` in undici's
 * `fetch`). Here the socket is half-closed instead, and what the client still sends is read and
 * discarded until it has sent the body, closes, or is silent for half a second, and for `lingerMs` at most, which bounds the cost of a hostile upload.
 */
export function installLingeringClose(app: FastifyInstance, options: LingeringCloseOptions = {}): void {
  const lingerMs = options.lingerMs ?? 5000;
  app.addHook('onSend', async (request, reply) => {
    // Only answers that end the connection early: otherwise Node reads the rest of the body and keeps the connection.
    if (request.raw.complete || (reply.statusCode !== 413 && reply.getHeader('connection') !== 'close')) return;
    const socket = request.raw.socket as Socket & { destroySoon?: () => void; lingering?: boolean };
    if (!socket || socket.lingering) return;
    socket.lingering = true;
    socket.destroySoon = () => {
      if (socket.destroyed) return;
      // Not unref'd: a server closing waits for this socket, and the wait is bounded by lingerMs.
      const timer = setTimeout(() => socket.destroy(), lingerMs);
      socket.once('close', () => clearTimeout(timer));
      // Done when the client has sent the whole body (Node's parser still reads it and discards
      // it), or gives up and closes its side.
      if (request.raw.complete) return void socket.destroy();
      request.raw.once('end', () => socket.destroy());
      request.raw.resume();
      socket.once('end', () => socket.destroy());
      // A client that has read its answer may simply stop sending and wait: half a second of
      // silence ends the linger too.
      socket.setTimeout(500, () => socket.destroy());
      socket.on('error', () => socket.destroy());
      // Half-close once the answer is out, and keep reading what the client still sends.
      socket.end();
      socket.resume();
      socket.on('data', () => {});
    };
    // Closing is what tells the client to stop sending; keep-alive would have it send the whole body.
    reply.header('connection', 'close');
  });
}
