import type { IncomingMessage } from 'node:http';
import { defineStep, stepKey } from './pipeline/step-definition.ts';

export interface LingeringCloseOptions {
  /** How long an unread body is drained before the early answer goes out; 5 s by default. */
  lingerMs?: number;
  /** How many more bytes are drained at most; 64 MiB by default. */
  lingerBytes?: number;
  /** A pause in the upload this long ends the drain: the client is waiting for the answer. 500 ms by default. */
  silenceMs?: number;
}

export const lingeringCloseKey = stepKey<LingeringCloseOptions>('lingering-close');

/**
 * The `respond:lingering-close` step: a client that writes its whole body before it reads
 * (Python's `http.client`) still reads an early answer (a 413, a 401): Node closes the connection,
 * and the client's next write meets a reset that drops the unread answer (`EPIPE`). As nginx's
 * `lingering_close`, the rest of the body is drained first, within bounds a hostile upload cannot
 * stretch. Its resource is provided before any plugin context, so forwarded routes meet it too.
 */
export const lingeringCloseStep = defineStep({
  needs: lingeringCloseKey,
  name: 'lingering-close',
  thin: true,
  phase: 'respond',
  create: (options) => {
    const bounds = {
      lingerMs: options.lingerMs ?? 5000,
      lingerBytes: options.lingerBytes ?? 64 * 1024 * 1024,
      silenceMs: options.silenceMs ?? 500,
    };
    return (request, reply) => {
      const req = request.raw;
      if (req.complete || !hasBody(req)) return;
      // Closing is what tells the client to stop sending; keep-alive would have it send the whole body.
      reply.header('connection', 'close');
      return drain(req, bounds);
    };
  },
});

/** Whether the request frames a body (a `Transfer-Encoding`, or a `Content-Length` other than 0). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The events after which nothing more of the body comes. */
const ends = ['end', 'close', 'error'] as const;

/** Read and discard the rest of the body, within the bounds; never rejects. */
function drain(req: IncomingMessage, bounds: { lingerMs: number; lingerBytes: number; silenceMs: number }) {
  return new Promise<void>((resolve) => {
    let drained = 0;
    let silence = setTimeout(() => finish(), bounds.silenceMs);
    const deadline = setTimeout(() => finish(), bounds.lingerMs);
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > bounds.lingerBytes) return finish();
      clearTimeout(silence);
      silence = setTimeout(() => finish(), bounds.silenceMs);
    };
    function finish() {
      clearTimeout(silence);
      clearTimeout(deadline);
      req.off('data', onData);
      for (const event of ends) req.off(event, finish);
      resolve();
    }
    req.on('data', onData);
    for (const event of ends) req.once(event, finish);
    req.resume();
  });
}
