import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RoutePlan } from '../pipeline/compile-route.ts';
import { routePlanOf } from '../pipeline/request-pipeline.ts';
import { plainPath } from '../forwarded-catch-all.ts';
import { hasBody } from '../lingering-close.ts';
import { ThinReply, ThinRequest, type ThinSetup, type ThinStages } from './thin-call.ts';
import { templateMatcher } from './thin-routes.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => void;

/** A forwarded version's documented routes, as the thin data plane finds them. */
interface ThinVersion {
  /** The version's base path, `/api/v2`. */
  base: string;
  /** Each method's templates (HEAD beside GET), each with its route's pattern and handler. */
  byMethod: ReadonlyMap<string, ReadonlyMap<string, { url: string; handler: Handler }>>;
  /** Each method's templates compiled once the app is ready, when every route is registered. */
  match?: ReadonlyMap<string, (below: string) => string | undefined>;
}

type PlaneSetup = ThinSetup & { onError: ThinStages['onError'] };

interface Plane {
  /** The app's server: the key of its pipelines' plans. */
  server: object;
  prefix: string;
  versions: Map<string, ThinVersion>;
  setup?: PlaneSetup;
}

const planes = new WeakMap<object, Plane>();

/**
 * Stages the thin data plane runs; a plan with a step in any other is Fastify's. The body streams
 * upstream unread, so no step may need it parsed (preValidation, preHandler, preSerialization) or
 * release what an aborted call held (onRequestAbort); preParsing's steps read only headers.
 */
const thinStages: ReadonlySet<string> = new Set(['onRequest', 'preParsing', 'onSend', 'onResponse']);
const runnable = new WeakMap<RoutePlan, boolean>();

function thinPlan(plan: RoutePlan): boolean {
  let ok = runnable.get(plan);
  // A plan with a step not marked `thin` (a team's own hook, a body's check) is Fastify's.
  if (ok === undefined)
    runnable.set(plan, (ok = plan.thin && Object.keys(plan.stages).every((s) => thinStages.has(s))));
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
 * The app's request handler with the thin data plane in front, once the app is ready: it serves
 * what `serveThin` takes, and Fastify's handler (`app.routing`) every other request (the
 * management API, the portal, derived versions, a body on a GET, a target that is not plain).
 */
export function thinRouting(
  app: { server: object; routing: (req: IncomingMessage, res: ServerResponse) => void },
  setup: PlaneSetup,
): (req: IncomingMessage, res: ServerResponse) => void {
  const plane = planes.get(app.server);
  const fastify = app.routing;
  if (!plane || tracing()) return fastify;
  plane.setup = setup;
  for (const version of plane.versions.values())
    version.match = new Map([...version.byMethod].map(([method, routes]) => [method, templateMatcher(routes.keys())]));
  return (req, res) => {
    if (!serveThin(plane, req, res)) fastify(req, res);
  };
}

const noTracer = new ProxyTracerProvider().getDelegate();

/**
 * A tracer provider is registered: each call's request span is `@fastify/otel`'s, so Fastify
 * serves every call. Asked once: `@fastify/otel` instruments an app as it is created.
 */
function tracing(): boolean {
  const provider = trace.getTracerProvider();
  return (provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider) !== noTracer;
}

/** Fastify's `bodywith` methods but QUERY, which Fastify refuses without a body. */
const writes: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A `Content-Type` Fastify reads as valid, narrower than its own check: any other is Fastify's to refuse (415). */
const plainContentType = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+[ \t]*(?:;.*)?$/;

/**
 * The body as Fastify's `handleRequest` would make it: `null` for none, the request stream for a
 * write (the forwarded API's parser hands it on unread), `undefined` for a call left to Fastify.
 */
function bodyOf(req: IncomingMessage, method: string): IncomingMessage | null | undefined {
  const framed = hasBody(req);
  if (method === 'GET' || method === 'HEAD') return framed ? undefined : null;
  const type = req.headers['content-type'];
  if (type === undefined) return framed ? req : null;
  return plainContentType.test(type) ? req : undefined;
}

/** The request's version and path, when it is a plain target under a forwarded version (anything else is Fastify's). */
function versionOf(plane: Plane, url: string): { version: ThinVersion; path: string } | undefined {
  const { prefix } = plane;
  if (url.charCodeAt(prefix.length) !== 47 || !url.startsWith(prefix)) return undefined;
  const end = url.indexOf('?');
  const path = end === -1 ? url : url.slice(0, end);
  const slash = path.indexOf('/', prefix.length + 1);
  if (slash === -1) return undefined;
  const version = plane.versions.get(path.slice(prefix.length + 1, slash));
  // A dot segment, an escape, `//`: Fastify's, with its routing.
  if (version === undefined || path.includes('/.') || path.includes('//') || !plainPath.test(path)) return undefined;
  return { version, path };
}

/** Whether the thin data plane serves this request: a GET, HEAD or write of a documented route whose plan it can run. */
function serveThin(plane: Plane, req: IncomingMessage, res: ServerResponse): boolean {
  const { setup, server } = plane;
  const method = req.method!;
  if (setup === undefined || (method !== 'GET' && method !== 'HEAD' && !writes.has(method))) return false;
  const target = versionOf(plane, req.url!);
  if (target === undefined) return false;
  const body = bodyOf(req, method);
  if (body === undefined) return false;
  const { version, path } = target;
  const template = version.match?.get(method)?.(path.slice(version.base.length));
  const route = template === undefined ? undefined : version.byMethod.get(method)!.get(template);
  const plan = route && routePlanOf(server, route.url, method);
  if (!route || !plan || !thinPlan(plan)) return false;
  runPlan({ setup, plan, handler: route.handler }, new ThinRequest(req, setup, route.url, body ?? undefined), res);
  return true;
}

type Done = (error?: Error) => void;
type RequestStage = (request: FastifyRequest, reply: FastifyReply, done: Done) => void;

/** Run a route's plan as Fastify does: onRequest, preParsing, then the handler, each while nothing was sent. */
function runPlan(
  call: { setup: PlaneSetup; plan: RoutePlan; handler: Handler },
  request: ThinRequest,
  res: ServerResponse,
) {
  const { setup, plan } = call;
  const stages: ThinStages = { onSend: plan.stages.onSend, onResponse: plan.stages.onResponse, onError: setup.onError };
  const reply = new ThinReply(res, request, stages);
  const asFastify = request as unknown as FastifyRequest;
  const asReply = reply as unknown as FastifyReply;
  // Fastify's request log lines, when its level has them.
  if ((setup.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info')) {
    request.log.info({ req: request }, 'incoming request');
    res.once('finish', () => request.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed'));
  }
  const fail = (error: unknown) => {
    if (!reply.sent) setup.onError(error, asFastify, asReply);
  };
  const run = (stage: RequestStage | undefined, next: () => void) => {
    if (!stage) return next();
    try {
      stage(asFastify, asReply, (error) => {
        if (error) fail(error);
        else if (!reply.sent) next();
      });
    } catch (error) {
      fail(error);
    }
  };
  const parsing = plan.stages.preParsing as RequestStage | undefined;
  run(plan.stages.onRequest as RequestStage | undefined, () => run(parsing, () => run(call.handler, () => undefined)));
}
