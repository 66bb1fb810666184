import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { createApiScope, type ApiScope } from '../api-scope.ts';
import { routeUrlOf } from '../route-url.ts';
import { compileRoute, type Done, type PayloadDone, type RoutePlan } from './compile-route.ts';
import { requestPhases, type PayloadPhase, type RequestPhase } from './phases.ts';
import { describeRoute, type RouteDescription } from './route-description.ts';
import type { PayloadStep, RequestStep } from './step-definition.ts';

export type { RequestStep } from './step-definition.ts';

/** The steps of one Fastify context, run by one hook per Fastify stage, compiled per route. */
export interface RequestPipeline {
  /** A step of any phase; one of `serialize` or `respond` may replace the payload. */
  add(step: AnyStep): void;
  /** A step of `respond` (the default) or `serialize`: it may replace the payload. */
  respond(step: PayloadStep): void;
  /** The product's steps in order (`phase:name`); a step the list does not name is refused. */
  order(list: readonly string[]): void;
  /** Forget the server's compiled plans: for a step whose `appliesTo` reads live state. */
  invalidate(): void;
}

/** A route's own steps, which the pipeline runs with the context's (`config: routeSteps([...])`). */
const kRouteSteps = 'versionarySteps';

/** The route config that gives a route its own steps, run in their phases among the context's. */
export function routeSteps(steps: readonly RequestStep[]): Record<string, unknown> {
  return { [kRouteSteps]: steps };
}

const pipelines = new WeakMap<FastifyInstance, Map<string, RequestPipeline>>();
// Every pipeline of one server, whichever context holds it (the loop's parts may sit in a context
// the app cannot see into), so that a route's steps can be printed from the app.
interface Registered {
  plan(url: string, method: string): RoutePlan | undefined;
  forget(): void;
}
const byServer = new WeakMap<object, Registered[]>();

/**
 * The steps of the route at `url` for `method`, in the order they run, as `phase:name`.
 * @internal exported for scripts/steps-table.ts and the tests
 */
export function describeRequestSteps(app: FastifyInstance, url: string, method = 'GET'): string[] {
  return (byServer.get(app.server) ?? []).flatMap((p) => [...(p.plan(url, method)?.names ?? [])]);
}

/** The compiled plan of a route when exactly one pipeline of the server serves it (for the thin data plane). */
export function routePlanOf(server: object, url: string, method: string): RoutePlan | undefined {
  let found: RoutePlan | undefined;
  for (const p of byServer.get(server) ?? []) {
    const plan = p.plan(url, method);
    if (plan === undefined) continue;
    if (found !== undefined) return undefined;
    found = plan;
  }
  return found;
}

/**
 * The pipeline of a context for an API under `prefix` (else its first), made on first use: before
 * the context's routes, since each is described when registered.
 */
export function requestPipeline(app: FastifyInstance, prefix?: string): RequestPipeline {
  let byPrefix = pipelines.get(app);
  if (!byPrefix) pipelines.set(app, (byPrefix = new Map()));
  if (prefix === undefined) {
    const first = byPrefix.values().next();
    if (!first.done) return first.value;
  }
  const key = prefix ?? '/api';
  let pipeline = byPrefix.get(key);
  if (!pipeline) byPrefix.set(key, (pipeline = createPipeline(app, createApiScope(key))));
  return pipeline;
}

type AnyStep = RequestStep | (PayloadStep & { phase: PayloadPhase });

function createPipeline(app: FastifyInstance, scope: ApiScope): RequestPipeline {
  // Declared on the context, so every request has the member from the start (one object shape).
  if (!app.hasRequestDecorator('versionaryState')) app.decorateRequest('versionaryState', null);
  const steps: AnyStep[] = [];
  const owner = {};
  let listed: readonly string[] | undefined;
  // Route patterns are few and fixed: each (pattern, method) is described and compiled once. Keyed
  // by pattern then method: both strings are the same objects on every request (their hashes are
  // kept), where a `${method} ${url}` key would be a new string to hash per request.
  const ownSteps = new Map<string, Map<string, readonly RequestStep[]>>();
  const plans = new Map<string, Map<string, RoutePlan>>();
  const rank = (step: { phase: RequestPhase; name: string }) => {
    const at = listed?.indexOf(`${step.phase}:${step.name}`) ?? -1;
    return requestPhases.indexOf(step.phase) * 10_000 + (at === -1 ? 9_999 : at);
  };
  const assertListed = (step: { phase: RequestPhase; name: string }) => {
    if (listed && !listed.includes(`${step.phase}:${step.name}`))
      throw new Error(`The step ${step.phase}:${step.name} is not in the product's list of steps.`);
  };
  const compile = (url: string | undefined, method: string, path: string): RoutePlan => {
    const route: RouteDescription = describeRoute(scope, { url, path, method });
    const own = url === undefined ? [] : (ownSteps.get(url)?.get(method) ?? []);
    const all = [...steps, ...own].filter((step) => step.appliesTo?.(route) ?? true);
    // Stable: a route's own steps follow the context's of the same phase.
    all.sort((a, b) => rank(a) - rank(b));
    return compileRoute(route, all, owner);
  };
  const planFor = (url: string, method: string): RoutePlan => {
    let byMethod = plans.get(url);
    if (!byMethod) plans.set(url, (byMethod = new Map()));
    let plan = byMethod.get(method);
    if (!plan) byMethod.set(method, (plan = compile(url, method, url)));
    return plan;
  };
  const routes = new Set<string>();
  app.addHook('onRoute', (route: RouteOptions) => {
    routes.add(route.url);
    const own = (route.config as Record<string, unknown> | undefined)?.[kRouteSteps] as RequestStep[] | undefined;
    if (!own) return;
    for (const step of own) assertListed(step);
    let byMethod = ownSteps.get(route.url);
    if (!byMethod) ownSteps.set(route.url, (byMethod = new Map()));
    for (const method of [route.method].flat()) byMethod.set(method, own);
  });
  // A path with no route is described per request (its plan is not kept), once for all its stages.
  installStageHooks(app, owner, (request: FastifyRequest) => {
    const url = routeUrlOf(request);
    return url === undefined ? compile(url, request.method, request.url) : planFor(url, request.method);
  });
  const server = byServer.get(app.server) ?? [];
  byServer.set(app.server, server);
  server.push({
    plan: (url, method) => (routes.has(url) ? planFor(url, method) : undefined),
    forget: () => plans.clear(),
  });

  const insert = (step: AnyStep) => {
    assertListed(step);
    steps.push(step);
    steps.sort((a, b) => rank(a) - rank(b));
    plans.clear();
  };
  return {
    add: insert,
    respond: (step) => insert({ ...step, phase: step.phase ?? 'respond' }),
    order(list) {
      listed = list;
      for (const step of steps) assertListed(step);
      for (const byMethod of ownSteps.values())
        for (const own of byMethod.values()) for (const step of own) assertListed(step);
      steps.sort((a, b) => rank(a) - rank(b));
      plans.clear();
    },
    // A request under way keeps the plan it started with (its stages agree with one another).
    invalidate: () => {
      for (const p of server) p.forget();
    },
  };
}

type StageFn = (request: FastifyRequest, reply: FastifyReply, done: Done) => void;
// eslint-disable-next-line max-params -- Fastify's callback payload hooks take four
type PayloadFn = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: PayloadDone) => void;

type WithPlan = FastifyRequest & { versionaryPlan: RoutePlan | null };

/**
 * One hook per Fastify stage, added before any plugin context so every route meets them before the
 * app's own. The plan is kept on the request (`versionaryPlan`; a second pipeline keeps its own
 * aside) and looked up again after `reply.callNotFound()`.
 */
function installStageHooks(app: FastifyInstance, owner: object, resolve: (request: FastifyRequest) => RoutePlan): void {
  if (!app.hasRequestDecorator('versionaryPlan')) app.decorateRequest('versionaryPlan', null);
  const aside = new WeakMap<FastifyRequest, RoutePlan>();
  const planOf = (request: FastifyRequest): RoutePlan => {
    const held = (request as WithPlan).versionaryPlan;
    if (held !== null && held.owner === owner && !(held.routed && request.is404)) return held;
    const kept = held === null || held.owner === owner ? undefined : aside.get(request);
    if (kept && !(kept.routed && request.is404)) return kept;
    const plan = resolve(request);
    if (held === null || held.owner === owner) (request as WithPlan).versionaryPlan = plan;
    else aside.set(request, plan);
    return plan;
  };
  const plain = (stage: 'onRequest' | 'preValidation' | 'preHandler' | 'onResponse') =>
    app.addHook(stage, (request: FastifyRequest, reply: FastifyReply, done: Done) => {
      const run = planOf(request).stages[stage] as StageFn | undefined;
      if (run) run(request, reply, done);
      else done();
    });
  const withPayload = (stage: 'preSerialization' | 'onSend') =>
    // eslint-disable-next-line max-params -- Fastify's callback payload hooks take four
    app.addHook(stage, (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: PayloadDone) => {
      const run = planOf(request).stages[stage] as PayloadFn | undefined;
      if (run) run(request, reply, payload, done);
      else done(null, payload);
    });
  plain('onRequest');
  // The payload of preParsing is the body stream: its steps look at headers and pass it on.
  // eslint-disable-next-line max-params -- Fastify's callback preParsing hook takes four
  app.addHook('preParsing', (request, reply, payload, done) => {
    const run = planOf(request).stages.preParsing as StageFn | undefined;
    if (!run) return done(null, payload);
    run(request, reply, (error) => (error ? done(error) : done(null, payload)));
  });
  plain('preValidation');
  plain('preHandler');
  withPayload('preSerialization');
  withPayload('onSend');
  plain('onResponse');
  app.addHook('onRequestAbort', (request, done) => {
    const run = planOf(request).stages.onRequestAbort as StageFn | undefined;
    // The client left: there is no reply to give the steps (they release what the request held).
    if (run) run(request, null as unknown as FastifyReply, done);
    else done();
  });
}
