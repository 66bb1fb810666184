import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RoutePlan } from '../pipeline/compile-route.ts';
import { routePlanOf } from '../pipeline/request-pipeline.ts';
import { plainPath } from '../forwarder.ts';
import { hasBody } from '../lingering-close.ts';
import { ThinReply, ThinRequest, type ThinSetup, type ThinStages } from './thin-call.ts';
import { templateMatcher } from './thin-routes.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => void;

/** A forwarded version's documented routes, as the thin data plane finds them: each method's templates. */
interface ThinVersion {
  /** The version's base path, `/api/v2`. */
  base: string;
  /** Each method's templates (HEAD beside GET), each with its route's pattern and handler. */
  byMethod: ReadonlyMap<string, ReadonlyMap<string, { url: string; handler: Handler }>>;
}

/** What the app hands the thin data plane once its routes are registered. */
type PlaneSetup = ThinSetup & { onError: ThinStages['onError'] };

/** A forwarded version as the thin data plane serves it: each method's templates matched without splitting them per call. */
interface ServedVersion extends ThinVersion {
  /** Made once the app is ready, when every route is registered. */
  match?: ReadonlyMap<string, (below: string) => string | undefined>;
}

/** The thin data plane of one server: the forwarded versions it serves, by name. */
interface Plane {
  /** The app's server: the key of its pipelines' plans. */
  server: object;
  prefix: string;
  versions: Map<string, ServedVersion>;
  setup?: PlaneSetup;
}

const planes = new WeakMap<object, Plane>();

/**
 * Stages the thin data plane runs: a plan with a step in any other is Fastify's. preParsing's
 * steps read only headers (the body's encoding). A step that needs the parsed body or the
 * handler's value (preValidation, preHandler, preSerialization) cannot run here, where the body
 * streams upstream unread; nor can one that releases what an aborted call held (onRequestAbort):
 * the service's `Idempotency-Key` replay has both, and the gateway leaves idempotency to the
 * upstream (it never installs that step), so a write's plan holds none of them.
 */
const thinStages: ReadonlySet<string> = new Set(['onRequest', 'preParsing', 'onSend', 'onResponse']);
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
 * The app's request handler with the thin data plane in front, once the app is ready: a GET,
 * HEAD, POST, PUT, PATCH or DELETE of a forwarded version's documented route is served by the thin
 * data plane (a write's body streamed upstream), and every other request (the management API, the
 * portal, the documents, derived versions, metrics, a body on a GET, a `Content-Type` Fastify may
 * refuse, a target that is not plain) by Fastify's handler (`app.routing`). An app with no
 * forwarded version gets Fastify's handler itself.
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
 * A tracer provider is registered (an OpenTelemetry SDK, however it was started): each call's
 * request span is `@fastify/otel`'s, so Fastify serves every call. Asked once, when the app is
 * ready, not per call: `@fastify/otel` instruments an app as it is created, so an SDK registered
 * after that gets no request span from Fastify either.
 */
function tracing(): boolean {
  const provider = trace.getTracerProvider();
  return (provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider) !== noTracer;
}

/** Methods whose body the thin data plane streams upstream, as Fastify's `bodywith` methods (QUERY stays Fastify's: a body is required). */
const writes: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A `Content-Type` Fastify's parser reads as valid (`type/subtype`, tokens, then any parameters):
 * narrower than Fastify's own check (no leading space, no Unicode space), so that every value it
 * passes Fastify passes too. Any other value is Fastify's to refuse (415, as a problem).
 */
const plainContentType = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+[ \t]*(?:;.*)?$/;

/**
 * What Fastify's `handleRequest` would make the body of a call the thin data plane takes: `null`
 * for no body (a GET or HEAD, or a write with no `Content-Type` and no framing of a body), the
 * request stream itself for any other write (the forwarded API's content-type parser hands the
 * stream on unread), and `undefined` for a call the thin data plane leaves to Fastify: a body on
 * a GET or HEAD, or a `Content-Type` Fastify may refuse.
 */
function bodyOf(req: IncomingMessage, method: string): IncomingMessage | null | undefined {
  const framed = hasBody(req);
  if (method === 'GET' || method === 'HEAD') return framed ? undefined : null;
  const type = req.headers['content-type'];
  if (type === undefined) return framed ? req : null;
  return plainContentType.test(type) ? req : undefined;
}

/** The request's version and path, when it is a plain target under a forwarded version (anything else is Fastify's). */
function versionOf(plane: Plane, url: string): { version: ServedVersion; path: string } | undefined {
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

/**
 * Whether the thin data plane serves this request: a GET, HEAD or write (POST, PUT, PATCH,
 * DELETE) of a forwarded version's documented route whose plan it can run.
 */
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

/**
 * Run a route's plan as Fastify runs a route: the onRequest stage, then the body's (preParsing),
 * then the handler, each only while no answer has been sent; a step's error goes to the problem
 * handler. The answer's stages run from the reply (`ThinReply.send`).
 */
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
  const handle = () => {
    try {
      call.handler(asFastify, asReply);
    } catch (error) {
      fail(error);
    }
  };
  const parsing = plan.stages.preParsing as RequestStage | undefined;
  run(plan.stages.onRequest as RequestStage | undefined, () => run(parsing, handle));
}
