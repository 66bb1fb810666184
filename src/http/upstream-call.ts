import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { buildConnector, Dispatcher } from 'undici';
import type { HeaderList, Headers } from './forward-headers.ts';
import { stateOf } from './pipeline/request-state.ts';
import { UpstreamBody } from './upstream-body.ts';

/** What one forwarded call needs besides the request: its target and headers, and what to do with the answer's. */
export interface UpstreamCall {
  /** The request target sent upstream, in origin form. */
  path: string;
  /** The request headers sent upstream: a flat list of names and values, or an object. */
  headers: HeaderList | Headers;
  /** Set the upstream's response headers (lower-case) on the reply, as the client gets them. */
  responseHeaders(upstream: Headers, reply: FastifyReply): void;
  /** The upstream could not be reached or did not answer in time, before anything was sent. */
  onError(reply: FastifyReply, error: Error & { code?: string }): void;
}

/**
 * An answer no longer than this, with a `Content-Length` and a `Content-Type`, is sent as one
 * buffer: no stream, and Fastify frames it. Anything else (chunked, larger, untyped) streams with
 * backpressure, so memory stays bounded whatever the upstream sends.
 */
const wholeUpTo = 64 * 1024;

/**
 * Forward one request through undici's `dispatch`: the body streams up as it arrives, the answer
 * comes back whole when small and streams when not. The reply goes out through Fastify, so the
 * pipeline's respond steps and `onResponse` hooks see it as they see a handler's.
 */
export function callUpstream(pool: Dispatcher, reply: FastifyReply, call: UpstreamCall): void {
  const request = reply.request;
  const method = request.method;
  const source = method === 'GET' || method === 'HEAD' ? undefined : (request.body as Readable | undefined);
  const body = source ? new UpstreamBody(source) : null;
  stateOf(request).forwarded = true;
  pool.dispatch(
    { method, path: call.path, headers: call.headers as string[] | Record<string, string>, body },
    new ForwardHandler(reply, call, body),
  );
}

class ForwardHandler implements Dispatcher.DispatchHandler {
  #reply: FastifyReply;
  #call: UpstreamCall;
  /** A small answer is read whole: its first piece (nearly always the only one), then any more. */
  #whole = false;
  #first?: Buffer;
  #more?: Buffer[];
  /** A large or open-ended answer's stream, once sent. */
  #stream?: Readable;
  /** The request body on its way upstream, if any. */
  #body: UpstreamBody | null;
  /** The upstream's answer has ended: nothing is left to abort. */
  #ended = false;

  constructor(reply: FastifyReply, call: UpstreamCall, body: UpstreamBody | null) {
    this.#reply = reply;
    this.#call = call;
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
      controller.abort(new Error(`The upstream answered status ${statusCode}.`));
      return;
    }
    // An upstream that refuses the body, or closes, before reading it all wants no more of it
    // (RFC 9112, section 9.5): the rest would meet a reset that can drop its answer unread.
    if (statusCode >= 400 || closes(upstream.connection)) this.#body?.stop();
    this.#call.responseHeaders(upstream, reply);
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
    this.#call.onError(reply, error);
  }
}

/** A `Connection` header that names `close`. */
function closes(connection: string | string[] | undefined): boolean {
  if (connection === undefined) return false;
  if (typeof connection === 'string') return closeToken.test(connection);
  return connection.some((value) => closeToken.test(value));
}

const closeToken = /(^|,)\s*close\s*(,|$)/i;

/** The client's connection is gone (the request stream itself ends, and is destroyed, once its body is read). */
function clientGone(reply: FastifyReply): boolean {
  const socket = reply.raw.socket;
  return reply.raw.destroyed || !socket || socket.destroyed;
}

/** An upstream's answer read whole, or `tooLarge` once it passed the limit (the call then aborted). */
export type WholeAnswer = { statusCode: number; headers: Headers; body: Buffer } | { tooLarge: true };

/**
 * One call upstream with its answer read whole, through undici's `dispatch` (as the forwarder's
 * calls go): no body stream and no async iterator per answer, which a derived version's calls,
 * read whole to be translated, do not need. An answer over `limit` bytes aborts the call.
 */
export function callWhole(
  pool: Dispatcher,
  options: { method: Dispatcher.HttpMethod; path: string; headers: Headers; body: Buffer | null; limit: number },
): Promise<WholeAnswer> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let headers: Headers = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
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
          settled = true;
          resolve({ tooLarge: true });
          return controller.abort(new Error('The answer is over the limit.'));
        }
        chunks.push(chunk);
      },
      onResponseEnd() {
        if (settled) return;
        settled = true;
        resolve({ statusCode, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
      },
      onResponseError(_controller, error) {
        if (settled) return;
        settled = true;
        reject(error);
      },
    };
    const { method, path, body } = options;
    pool.dispatch({ method, path, headers: options.headers as Record<string, string>, body }, handler);
  });
}

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
