import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { buildConnector, Dispatcher } from 'undici';
import { upstreamProblem } from '../core/rulebook/problems.ts';
import { connectionNames, setResponseHeaders, type HeaderList, type Headers } from './forward-headers.ts';
import { sendProblem } from './problem.ts';
import { stateOf } from './pipeline/request-state.ts';
import { UpstreamBody } from './upstream-body.ts';

/** What one forwarded call sends: its target in origin form, and its headers. */
interface UpstreamCall {
  path: string;
  headers: HeaderList | Headers;
}

/** The upstream could not be reached or did not answer in time: a 502 or 504 problem, or a reset once a reply began. */
export function upstreamFailed(reply: FastifyReply, error: Error & { code?: string; statusCode?: number }): void {
  const timedOut =
    error.statusCode === 504 ||
    /TIMEOUT/i.test(error.code ?? '') ||
    /TIMEOUT/i.test((error.cause as { code?: string } | undefined)?.code ?? '');
  reply.request.log.warn(
    { err: { message: error.message, code: error.code } },
    timedOut ? 'upstream timed out' : 'upstream unreachable',
  );
  if (reply.sent || reply.raw.headersSent) return void reply.raw.destroy();
  reply.header('connection', 'close');
  sendProblem(reply, upstreamProblem(timedOut));
}

/** An answer up to this size, with a `Content-Length` and a `Content-Type`, is sent as one buffer; any other streams. */
const wholeUpTo = 64 * 1024;

/**
 * Forward one request through undici's `dispatch`, the body streamed up. The reply goes out
 * through Fastify, so the pipeline's respond steps see it as they see a handler's.
 */
export function callUpstream(pool: Dispatcher, reply: FastifyReply, call: UpstreamCall): void {
  const request = reply.request;
  const method = request.method;
  const source = method === 'GET' || method === 'HEAD' ? undefined : (request.body as Readable | undefined);
  const body = source ? new UpstreamBody(source) : null;
  stateOf(request).forwarded = true;
  pool.dispatch(
    { method, path: call.path, headers: call.headers as string[] | Record<string, string>, body },
    new ForwardHandler(reply, body),
  );
}

class ForwardHandler implements Dispatcher.DispatchHandler {
  #reply: FastifyReply;
  /** A small answer's pieces: the first (nearly always the only one), then any more. */
  #whole = false;
  #first?: Buffer;
  #more?: Buffer[];
  /** A large or open-ended answer's stream, once sent. */
  #stream?: Readable;
  /** The request body on its way upstream, if any. */
  #body: UpstreamBody | null;
  /** The upstream's answer has ended: nothing is left to abort. */
  #ended = false;

  constructor(reply: FastifyReply, body: UpstreamBody | null) {
    this.#reply = reply;
    this.#body = body;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // The client has gone before the upstream was asked: ask nothing.
    if (clientGone(this.#reply)) controller.abort(new Error('The client closed the connection.'));
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    upstream: Record<string, string | string[] | undefined>,
  ): void {
    const reply = this.#reply;
    if (clientGone(reply)) return controller.abort(new Error('The client closed the connection.'));
    try {
      reply.code(statusCode);
    } catch {
      // A status Node cannot send (above 599): the upstream's answer is not HTTP the client can read.
      return controller.abort(new Error(`The upstream answered status ${statusCode}.`));
    }
    // An upstream that refuses the body, or closes, before reading it all wants no more of it
    // (RFC 9112, section 9.5): the rest would meet a reset that can drop its answer unread.
    if (statusCode >= 400 || connectionNames(upstream.connection)?.has('close')) this.#body?.stop();
    setResponseHeaders(upstream, reply);
    // An HTTP/1.1 connection cannot be reused until the request body is read: the upstream answered
    // first. The client's body is drained before the answer goes out (the lingering close).
    if (!reply.request.raw.complete) reply.header('connection', 'close');
    // The framing is the upstream's, read from its own headers.
    const length = Number(upstream['content-length']);
    const empty = reply.request.method === 'HEAD' || statusCode === 204 || statusCode === 304;
    if (empty || (length <= wholeUpTo && upstream['content-type'] !== undefined && !upstream['transfer-encoding'])) {
      this.#whole = true;
      return;
    }
    this.#stream = new Readable({
      read: () => controller.resume(),
      // The client went away mid-answer (Fastify destroys the stream): stop reading the upstream.
      // A stream read to its end is destroyed too (autoDestroy): the call has completed, so no abort.
      destroy: (error, done) => {
        if (!this.#ended && !controller.aborted)
          controller.abort(error ?? new Error('The client closed the connection.'));
        done(error);
      },
    });
    reply.send(this.#stream);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#whole) {
      if (!this.#first) this.#first = chunk;
      else (this.#more ??= [this.#first]).push(chunk);
    } else if (this.#stream && !this.#stream.push(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.#ended = true;
    if (this.#stream) return void this.#stream.push(null);
    this.#reply.send(this.#more ? Buffer.concat(this.#more) : this.#first);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error & { code?: string }): void {
    // The answer was read whole: undici then resets a connection still busy with the request
    // body, and tells that to a call that has completed.
    if (this.#ended) return;
    const reply = this.#reply;
    if (this.#stream) return void this.#stream.destroy(error);
    if (clientGone(reply) || reply.sent) return;
    upstreamFailed(reply, error);
  }
}

/** The client's connection is gone (the request stream itself ends, and is destroyed, once its body is read). */
function clientGone(reply: FastifyReply): boolean {
  const socket = reply.raw.socket;
  return reply.raw.destroyed || !socket || socket.destroyed;
}

/** An upstream's answer read whole, or `tooLarge` once it passed the limit (the call then aborted). */
export type WholeAnswer = { statusCode: number; headers: Headers; body: Buffer } | { tooLarge: true };

/** One call upstream with its answer read whole (no stream per answer); one over `limit` bytes aborts the call. */
export function callWhole(
  pool: Dispatcher,
  options: { method: Dispatcher.HttpMethod; path: string; headers: Headers; body: Buffer | null; limit: number },
): Promise<WholeAnswer> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let headers: Headers = {};
    const chunks: Buffer[] = [];
    let size = 0;
    // A promise settles once, and undici's abort acts once: an end or error after `tooLarge` changes nothing.
    const handler: Dispatcher.DispatchHandler = {
      // Its presence tells undici this handler speaks its controller API (onResponse*).
      onRequestStart() {},
      onResponseStart(_controller, status, upstream) {
        statusCode = status;
        headers = upstream as Headers;
      },
      onResponseData(controller, chunk) {
        size += chunk.length;
        if (size > options.limit) {
          resolve({ tooLarge: true });
          return controller.abort(new Error('The answer is over the limit.'));
        }
        chunks.push(chunk);
      },
      onResponseEnd: () =>
        resolve({ statusCode, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) }),
      onResponseError: (_controller, error) => reject(error),
    };
    const { method, path, body } = options;
    pool.dispatch({ method, path, headers: options.headers as Record<string, string>, body }, handler);
  });
}

type WriteCallback = (error?: Error | null) => void;

/** How long a failed write waits at most for the connection's read side to close. */
const holdMs = 1000;

/**
 * Open upstream connections as `connector` does, on sockets whose failed write is reported only
 * once the socket has closed (or after {@link holdMs}). An upstream that answers (a 413, a 401)
 * before reading the body and closes makes the next write fail (`EPIPE`), and Node destroys the
 * socket at once: the answer waiting in the receive buffer was lost, and the client got a 502.
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
