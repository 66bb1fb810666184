import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Stage } from '../pipeline/compile-route.ts';
import { nextRequestId } from './thin-request-id.ts';

/** What a thin request takes of the app: its logger, and its judge of a request id sent. */
export interface ThinSetup {
  log: FastifyBaseLogger;
  requestId: (req: IncomingMessage) => string;
}

/**
 * The request of a thin call: the members of Fastify's that the pipeline's steps and the forwarder
 * read. A class, so that every one has one shape and its logger is made on first use.
 */
export class ThinRequest {
  readonly raw: IncomingMessage;
  readonly headers: IncomingMessage['headers'];
  readonly url: string;
  readonly originalUrl: string;
  readonly method: string;
  readonly ip: string;
  readonly host: string;
  readonly socket: IncomingMessage['socket'];
  readonly protocol = 'http' as const;
  readonly id: string;
  readonly is404 = false as const;
  readonly routeOptions: { url: string; config: Record<string | symbol, unknown> };
  versionaryState: Record<string, unknown>;
  versionaryPlan = null;
  /** The request stream for a write with a body, as the forwarded API's content-type parser hands it on. */
  readonly body: IncomingMessage | undefined;
  #setup: ThinSetup;
  #log: FastifyBaseLogger | undefined;

  // eslint-disable-next-line max-params -- built in one place, per request
  constructor(req: IncomingMessage, setup: ThinSetup, url: string, body: IncomingMessage | undefined) {
    this.raw = req;
    this.headers = req.headers;
    this.url = req.url!;
    this.originalUrl = this.url;
    this.method = req.method!;
    this.ip = req.socket.remoteAddress ?? '';
    this.host = req.headers.host ?? '';
    this.socket = req.socket;
    // One sent is the app's to judge (kept when well-formed); none, and the id is made here, cheaply.
    this.id = req.headers['x-request-id'] === undefined ? nextRequestId() : setup.requestId(req);
    this.body = body;
    this.routeOptions = { url, config: noConfig };
    this.versionaryState = { routeUrl: url };
    this.#setup = setup;
  }

  // A child logger per request costs more than the rest of the call: made when something logs.
  get log(): FastifyBaseLogger {
    return (this.#log ??= this.#setup.log.child({ reqId: this.id }));
  }
}

const noConfig: Record<string | symbol, unknown> = Object.freeze({});

type PayloadDone = (error: Error | null, payload?: unknown) => void;
// eslint-disable-next-line max-params -- Fastify's payload hooks take four
type PayloadStage = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: PayloadDone) => void;

/** How a thin call's answer is finished: the route's respond and after stages, and the error handler. */
export interface ThinStages {
  onSend?: Stage | undefined;
  onResponse?: Stage | undefined;
  onError: (error: unknown, request: FastifyRequest, reply: FastifyReply) => unknown;
}

/**
 * The reply of a call the thin data plane serves: the members of Fastify's reply that the
 * pipeline's steps, the problem writer and the forwarder use, with Fastify's semantics for each
 * (lower-case header names, `send` framing a buffer, string or stream, then the route's respond
 * stage and its after stage once the answer is out). No hooks are looked up and no route is
 * matched: the stages are the route's compiled plan.
 */
export class ThinReply {
  readonly raw: ServerResponse;
  readonly request: FastifyRequest;
  sent = false;
  #headers: Record<string, string | string[]> = {};
  #serializer: ((payload: unknown) => string) | undefined;
  #start = performance.now();
  #stages: ThinStages;

  constructor(raw: ServerResponse, request: ThinRequest, stages: ThinStages) {
    this.raw = raw;
    this.request = request as unknown as FastifyRequest;
    this.#stages = stages;
  }

  get log(): FastifyBaseLogger {
    return this.request.log;
  }

  get statusCode(): number {
    return this.raw.statusCode;
  }

  get elapsedTime(): number {
    return performance.now() - this.#start;
  }

  code(status: number): this {
    // Fastify refuses a status Node cannot send; the forwarder relies on the throw.
    if (!Number.isInteger(status) || status < 100 || status > 599) throw new RangeError(`Bad status ${status}`);
    this.raw.statusCode = status;
    return this;
  }

  header(name: string, value: unknown): this {
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.map(String) : String(value ?? '');
    const held = this.#headers[key];
    // As Fastify does: only `Set-Cookie` gathers values; any other name is replaced.
    if (key === 'set-cookie' && held !== undefined) this.#headers[key] = [held, text].flat();
    else this.#headers[key] = text;
    return this;
  }

  headers(values: Readonly<Record<string, unknown>>): this {
    for (const name in values) this.header(name, values[name]);
    return this;
  }

  // As Fastify's: a header set on the response itself (the server's `Connection: close` while it drains) counts too.
  getHeader(name: string): string | string[] | undefined {
    const key = name.toLowerCase();
    return this.#headers[key] ?? (this.raw.getHeader(key) as string | string[] | undefined);
  }

  getHeaders(): Record<string, unknown> {
    return { ...this.raw.getHeaders(), ...this.#headers };
  }

  hasHeader(name: string): boolean {
    return this.getHeader(name) !== undefined;
  }

  removeHeader(name: string): this {
    const key = name.toLowerCase();
    delete this.#headers[key];
    if (!this.raw.headersSent) this.raw.removeHeader(key);
    return this;
  }

  serializer(fn: (payload: unknown) => string): this {
    this.#serializer = fn;
    return this;
  }

  /** Frame the payload as Fastify does, run the route's respond stage on it, and write it. */
  send(payload?: unknown): this {
    if (this.sent) return this;
    this.sent = true;
    let body = payload;
    if (!isStream(body) && body !== undefined && body !== null) {
      const text = typeof body === 'string';
      const json = !text && !Buffer.isBuffer(body);
      if (!this.hasHeader('content-type'))
        this.#headers['content-type'] = json
          ? 'application/json; charset=utf-8'
          : text
            ? 'text/plain; charset=utf-8'
            : 'application/octet-stream';
      if (json) body = (this.#serializer ?? JSON.stringify)(body);
    }
    const onSend = this.#stages.onSend as PayloadStage | undefined;
    if (!onSend) this.#write(body);
    else
      onSend(this.request, this as unknown as FastifyReply, body, (error, next) => {
        if (!error) return this.#write(next);
        this.log.error({ err: error }, 'a respond step failed');
        this.raw.destroy(error);
      });
    return this;
  }

  #write(payload: unknown): void {
    const res = this.raw;
    const status = res.statusCode;
    const head = this.#headers;
    const after = this.#stages.onResponse as
      ((request: FastifyRequest, reply: FastifyReply, done: () => void) => void) | undefined;
    if (after) res.once('finish', () => after(this.request, this as unknown as FastifyReply, noop));
    if (payload === undefined || payload === null) {
      if (status >= 200 && status !== 204 && status !== 304 && this.request.method !== 'HEAD')
        head['content-length'] = '0';
      return void res.writeHead(status, head).end();
    }
    if ((status >= 100 && status < 200) || status === 204) {
      delete head['content-type'];
      delete head['content-length'];
      res.writeHead(status, head).end();
      if (isStream(payload)) payload.on('error', noop).resume();
      return;
    }
    if (isStream(payload)) return sendStream(payload, res, head);
    const bytes = payload as string | Buffer;
    const length = head['content-length'];
    if (!length || (this.request.method !== 'HEAD' && Number(length) !== Buffer.byteLength(bytes)))
      head['content-length'] = String(Buffer.byteLength(bytes));
    res.writeHead(status, head).end(bytes);
  }
}

type Stream = NodeJS.ReadableStream & { destroy?: (error?: Error) => void; resume(): Stream };

function isStream(payload: unknown): payload is Stream {
  return typeof (payload as { pipe?: unknown } | null)?.pipe === 'function';
}

/** A streamed answer: the head as set, then the stream piped; a client that leaves destroys the stream. */
function sendStream(payload: Stream, res: ServerResponse, head: Record<string, string | string[]>): void {
  let open = true;
  payload.once('end', () => (open = false));
  payload.once('error', () => {
    open = false;
    res.destroy();
  });
  res.once('close', () => {
    if (open) payload.destroy?.();
  });
  for (const name in head) res.setHeader(name, head[name]!);
  payload.pipe(res);
}

function noop(): void {}
