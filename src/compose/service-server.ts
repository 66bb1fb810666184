import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { toProblem } from '../http/index.ts';
import { requestIdOf } from '../service/ops/request-id.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The service's HTTP server, owned by the composition root rather than Fastify so that it can
 * listen before the app exists (`/livez` answers while the database is still unreachable) and
 * drain on shutdown: stop accepting, close idle keep-alive connections, let in-flight requests
 * finish within a deadline.
 */
export interface ServiceServer {
  server: Server;
  /** Route requests to `handler` from now on (the app, once it is built). */
  use(handler: Handler): void;
  /** Requests received and not yet answered. */
  inFlight(): number;
  /**
   * Stop accepting connections and wait, at most `deadlineMs`, for in-flight requests to finish.
   * Requests that arrive meanwhile on open connections are served, answered with `Connection: close`.
   * Resolves with the number of requests still running at the deadline (cut).
   */
  drain(deadlineMs: number): Promise<number>;
  /** Answer every later request with a `SHUTTING_DOWN` problem, and close every connection. */
  close(): Promise<void>;
}

/**
 * Create the server, answering with the starting handler until {@link ServiceServer.use}.
 *
 * @example
 * ```ts
 * const service = createServiceServer();
 * service.server.listen(3000);
 * service.use(app.routing);
 * ```
 */
export function createServiceServer(): ServiceServer {
  let handler: Handler = startingHandler;
  let active = 0;
  const idle: Array<() => void> = [];
  // 64 KiB of headers, as the app expects: an oversized credential gets a 401 problem, not a bare 431.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (request, response) => {
    active++;
    response.once('close', () => {
      active--;
      if (active === 0) for (const resolve of idle.splice(0)) resolve();
    });
    handler(request, response);
  });
  // Longer than the usual load balancer idle timeout (60 s), so the balancer closes first and
  // never sends a request on a connection this side is closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return {
    server,
    use: (next) => { handler = next; },
    inFlight: () => active,
    async drain(deadlineMs) {
      server.close();
      server.closeIdleConnections();
      // Connections that finish a request while draining become idle: close them as they do.
      const sweeper = setInterval(() => server.closeIdleConnections(), 100);
      try {
        if (active > 0) {
          await Promise.race([
            new Promise<void>((resolve) => idle.push(resolve)),
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
    ...error.headers, 'content-type': 'application/problem+json; charset=utf-8', 'cache-control': 'no-store', 'x-request-id': requestId,
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
  sendProblem(request, response, new VersionaryError({
    code: ErrorCode.StorageUnavailable, detail: 'The service is starting and cannot reach its database yet. Retry in 2 seconds.', headers: { 'retry-after': '2' },
  }));
}

/** After the drain: every request a 503 problem that sends the client elsewhere. */
function closingHandler(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  sendProblem(request, response, new VersionaryError({
    code: ErrorCode.ShuttingDown, detail: 'This instance is shutting down; retry, and the load balancer sends the request to another one.', headers: { 'retry-after': '1', connection: 'close' },
  }));
}
