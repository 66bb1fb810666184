import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { handleClientError, toProblem } from '../http/index.ts';
import type { TimeoutSettings } from '../kernel/app/timeouts.ts';
import { requestIdOf } from '../kernel/ops/request-id.ts';
import { requestHeadLimit } from '../kernel/app/request-head.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** While draining, an idle connection is closed once silent this long. */
const idleGraceMs = 1000;

/**
 * The service's HTTP server, owned by the composition root so it listens before the app exists and
 * drains on shutdown without resetting a request already sent (`docs/operations.md`).
 */
export interface ServiceServer {
  server: Server;
  use(handler: Handler): void;
  inFlight(): number;
  /** Keep accepting, but answer every request with `Connection: close`, so clients move elsewhere. */
  beginDrain(): void;
  /** Stop accepting and wait for every connection to close; resolves with the requests cut at the deadline. */
  drain(deadlineMs: number): Promise<number>;
  /** Answer every later request with a `SHUTTING_DOWN` problem, and close every connection. */
  close(): Promise<void>;
}

interface Connection {
  socket: Socket;
  /** Its requests not yet answered, oldest first (more than one when the client pipelines). */
  unanswered: ServerResponse[];
  quietSince: number;
  bytesSeen: number;
}

export function createServiceServer(timeouts: TimeoutSettings): ServiceServer {
  let handler: Handler = startingHandler;
  let active = 0;
  let draining = false;
  let drainStarted = 0;
  const open = new Map<Socket, Connection>();
  const settled: Array<() => void> = [];
  const checkSettled = () => {
    if (open.size === 0) for (const resolve of settled.splice(0)) resolve();
  };
  const server = createServer(
    {
      // 64 KiB of headers, as the app expects: an oversized credential gets a 401 problem, not a bare 431.
      maxHeaderSize: requestHeadLimit,
      headersTimeout: timeouts.headersSeconds * 1000,
      requestTimeout: timeouts.requestSeconds * 1000,
      keepAliveTimeout: timeouts.keepAliveSeconds * 1000,
      // Node checks the header and request timeouts this often (30 s by default): keep the bounds close.
      connectionsCheckingInterval: 1000,
    },
    (request, response) => {
      active++;
      open.get(request.socket)?.unanswered.push(response);
      if (draining) response.setHeader('connection', 'close');
      // One listener function for every response, not a closure each: `on` rather than `once`
      // (which wraps the listener) since a response closes once. The bookkeeping is the connection's.
      response.on('close', responseClosed);
      handler(request, response);
    },
  );
  function responseClosed(this: ServerResponse): void {
    active--;
    const connection = open.get(this.req.socket);
    if (!connection) return;
    const { unanswered } = connection;
    // Answers go out in order, so this is nearly always the first.
    const at = unanswered[0] === this ? 0 : unanswered.indexOf(this);
    if (at >= 0) unanswered.splice(at, 1);
    connection.quietSince = Date.now();
    connection.bytesSeen = connection.socket.bytesRead;
  }
  server.setTimeout(timeouts.idleSeconds * 1000);
  // Node's own 408 (slow headers or body), 431 and parser errors get a problem body like every other error.
  server.on('clientError', handleClientError);
  server.on('connection', (socket: Socket) => {
    open.set(socket, { socket, unanswered: [], quietSince: Date.now(), bytesSeen: 0 });
    socket.once('close', () => {
      open.delete(socket);
      checkSettled();
    });
  });

  const sweep = () => {
    const now = Date.now();
    for (const connection of open.values()) {
      if (connection.unanswered.length > 0) continue;
      // Bytes read since its last answer: a request is being parsed; give it its turn.
      if (connection.socket.bytesRead !== connection.bytesSeen) {
        connection.bytesSeen = connection.socket.bytesRead;
        connection.quietSince = now;
        continue;
      }
      if (now - Math.max(connection.quietSince, drainStarted) >= idleGraceMs) connection.socket.destroy();
    }
  };

  return {
    server,
    use: (next) => {
      handler = next;
    },
    inFlight: () => active,
    beginDrain() {
      if (draining) return;
      draining = true;
      drainStarted = Date.now();
      for (const { unanswered } of open.values())
        for (const response of unanswered) if (!response.headersSent) response.setHeader('connection', 'close');
    },
    async drain(deadlineMs) {
      this.beginDrain();
      // Stop accepting. Not http.Server#close(): since Node 19 it also closes every connection it
      // deems idle at once, and that includes one whose request is sent but not yet parsed.
      NetServer.prototype.close.call(server);
      sweep();
      const sweeper = setInterval(sweep, 100);
      try {
        if (open.size > 0) {
          await Promise.race([
            new Promise<void>((resolve) => settled.push(resolve)),
            new Promise<void>((resolve) => setTimeout(resolve, deadlineMs).unref()),
          ]);
        }
      } finally {
        clearInterval(sweeper);
      }
      return active;
    },
    async close() {
      handler = closingHandler;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendProblem(request: IncomingMessage, response: ServerResponse, error: VersionaryError): void {
  const { status, body } = toProblem(error, (request.url ?? '/').split('?')[0]);
  const requestId = requestIdOf(request);
  body.requestId = requestId;
  response.writeHead(status, {
    ...error.headers,
    'content-type': 'application/problem+json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
  });
  response.end(JSON.stringify(body));
}

/** Before the app is built: alive, not ready, and every other request a 503 problem. */
function startingHandler(request: IncomingMessage, response: ServerResponse): void {
  const path = (request.url ?? '/').split('?')[0];
  if (path === '/livez' || path === '/healthz') {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    return void response.end(JSON.stringify({ status: 'ok' }));
  }
  // The body is left unread; keep the connection only if there is none.
  request.resume();
  sendProblem(request, response, starting);
}

const starting = new VersionaryError({
  code: ErrorCode.StorageUnavailable,
  detail: 'The service is starting and cannot reach its database yet. Retry in 2 seconds.',
  headers: { 'retry-after': '2' },
});

/** After the drain: every request a 503 problem that sends the client elsewhere. */
const shuttingDown = new VersionaryError({
  code: ErrorCode.ShuttingDown,
  detail: 'This instance is shutting down; retry, and the load balancer sends the request to another one.',
  headers: { 'retry-after': '1', connection: 'close' },
});
const closingHandler: Handler = (request, response) => {
  request.resume();
  sendProblem(request, response, shuttingDown);
};
