import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { templateAt } from '../../core/rulebook/route-index.ts';
import type { RoutePlan } from '../pipeline/compile-route.ts';
import { routePlanOf } from '../pipeline/request-pipeline.ts';
import { ThinReply, type ThinRequest, type ThinStages } from './thin-call.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => void;

/** A forwarded version's documented routes, as the thin data plane finds them: each method's templates. */
interface ThinVersion {
  /** The version's base path, `/api/v2`. */
  base: string;
  /** Each method's templates (HEAD beside GET), each with its route's pattern and handler. */
  byMethod: ReadonlyMap<string, ReadonlyMap<string, { url: string; handler: Handler }>>;
}

/** What the app hands the thin data plane once its routes are registered. */
interface PlaneSetup {
  log: FastifyBaseLogger;
  requestId: (req: IncomingMessage) => string;
  onError: ThinStages['onError'];
}

/** The thin data plane of one server: the forwarded versions it serves, by name. */
interface Plane {
  /** The app's server: the key of its pipelines' plans. */
  server: object;
  prefix: string;
  versions: Map<string, ThinVersion>;
  setup?: PlaneSetup;
}

const planes = new WeakMap<object, Plane>();

/** Stages the thin data plane runs: a plan with a step in any other (a body's, the handler's) is Fastify's. */
const thinStages: ReadonlySet<string> = new Set(['onRequest', 'onSend', 'onResponse']);
const runnable = new WeakMap<RoutePlan, boolean>();

function thinPlan(plan: RoutePlan): boolean {
  let ok = runnable.get(plan);
  if (ok === undefined) {
    // Each step says whether it runs on the thin request (`thin` of its definition, the gateway's
    // steps: `test/composition/steps.snapshot.json`); a plan with any other (a team's own hook, a
    // deprecated parameter's check, a body's) is served by Fastify, with every stage in place.
    ok = plan.thin && Object.keys(plan.stages).every((s) => thinStages.has(s));
    runnable.set(plan, ok);
  }
  return ok;
}

/** Serve a forwarded version's documented routes from the thin data plane of `server` (the app's). */
export function addThinVersion(server: object, name: string, version: ThinVersion): void {
  let plane = planes.get(server);
  if (!plane)
    planes.set(server, (plane = { server, prefix: version.base.slice(0, -(name.length + 1)), versions: new Map() }));
  plane.versions.set(name, version);
}

/**
 * The app's request handler with the thin data plane in front, once the app is ready: a GET or
 * HEAD of a forwarded version's documented route is served by the thin data plane, and every
 * other request (the management API, the portal, the documents, derived versions, metrics, a body,
 * a target that is not plain) by Fastify's handler (`app.routing`). An app with no forwarded
 * version gets Fastify's handler itself.
 */
export function thinRouting(
  app: { server: object; routing: (req: IncomingMessage, res: ServerResponse) => void },
  setup: PlaneSetup,
): (req: IncomingMessage, res: ServerResponse) => void {
  const plane = planes.get(app.server);
  const fastify = app.routing;
  if (!plane) return fastify;
  plane.setup = setup;
  return (req, res) => {
    if (!serveThin(plane, req, res)) fastify(req, res);
  };
}

const noTracer = new ProxyTracerProvider().getDelegate();

/**
 * A tracer provider is registered (an OpenTelemetry SDK, however it was started): each call's
 * request span is `@fastify/otel`'s, so Fastify serves the call. Asked per call, as an SDK may
 * register after the app is built.
 */
function tracing(): boolean {
  const provider = trace.getTracerProvider();
  return (provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider) !== noTracer;
}

/** Characters a path keeps as they are in a URL parser (see `pathOf` in `forwarder.ts`): anything else is Fastify's. */
const plainPath = /^[\w\-.~!$&'()*+,;=:@/]*$/;

/** Whether the thin data plane serves this request: a GET or HEAD of a forwarded version's documented route. */
function serveThin(plane: Plane, req: IncomingMessage, res: ServerResponse): boolean {
  const { setup, server } = plane;
  const method = req.method!;
  if (setup === undefined || (method !== 'GET' && method !== 'HEAD') || tracing()) return false;
  const url = req.url!;
  const { prefix } = plane;
  if (url.charCodeAt(prefix.length) !== 47 || !url.startsWith(prefix)) return false;
  const end = url.indexOf('?');
  const path = end === -1 ? url : url.slice(0, end);
  const slash = path.indexOf('/', prefix.length + 1);
  if (slash === -1) return false;
  const version = plane.versions.get(path.slice(prefix.length + 1, slash));
  // A body on a GET, a dot segment, an escape, `//`: Fastify's, with its framing and routing.
  if (
    version === undefined ||
    path.includes('/.') ||
    path.includes('//') ||
    !plainPath.test(path) ||
    req.headers['transfer-encoding'] !== undefined ||
    (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')
  )
    return false;
  const byTemplate = version.byMethod.get(method);
  const template = byTemplate && templateAt(byTemplate.keys(), path.slice(version.base.length));
  const route = template === undefined ? undefined : byTemplate!.get(template);
  const plan = route && routePlanOf(server, route.url, method);
  if (!route || !plan || !thinPlan(plan)) return false;
  const request = thinRequest(req, setup, route.url);
  const stages: ThinStages = {
    onSend: plan.stages.onSend,
    onResponse: plan.stages.onResponse,
    onError: setup.onError,
  };
  const reply = new ThinReply(res, request, stages);
  const asFastify = request as unknown as FastifyRequest;
  // Fastify's request log lines, when its level has them.
  if ((setup.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info')) {
    request.log.info({ req: request }, 'incoming request');
    res.once('finish', () => request.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed'));
  }
  const fail = (error: unknown) => {
    if (!reply.sent) setup.onError(error, asFastify, reply as unknown as FastifyReply);
  };
  const onRequest = plan.stages.onRequest as
    ((request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void) | undefined;
  const handle = () => {
    try {
      route.handler(asFastify, reply as unknown as FastifyReply);
    } catch (error) {
      fail(error);
    }
  };
  if (!onRequest) handle();
  else
    try {
      onRequest(asFastify, reply as unknown as FastifyReply, (error) => {
        if (error) fail(error);
        else if (!reply.sent) handle();
      });
    } catch (error) {
      fail(error);
    }
  return true;
}

function thinRequest(req: IncomingMessage, setup: PlaneSetup, url: string): ThinRequest {
  return new Request(req, setup, url, setup.requestId(req));
}

/** The request of a thin call: a class, so that every one has one shape and its logger is made on first use. */
class Request implements ThinRequest {
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
  readonly routeOptions: ThinRequest['routeOptions'];
  versionaryState: Record<string, unknown>;
  versionaryPlan = null;
  body = undefined;
  #setup: PlaneSetup;
  #log: FastifyBaseLogger | undefined;

  // eslint-disable-next-line max-params -- built in one place, per request
  constructor(req: IncomingMessage, setup: PlaneSetup, url: string, id: string) {
    this.raw = req;
    this.headers = req.headers;
    this.url = req.url!;
    this.originalUrl = this.url;
    this.method = req.method!;
    this.ip = req.socket.remoteAddress ?? '';
    this.host = req.headers.host ?? '';
    this.socket = req.socket;
    this.id = id;
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
