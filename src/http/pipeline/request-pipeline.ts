import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createApiScope, type ApiScope } from '../api-scope.ts';
import { routeUrlOf } from '../route-url.ts';
import { runSteps } from './run-steps.ts';
import { requestPhases, type RequestPhase } from './phases.ts';
import { describeRoute, type RouteDescription } from './route-description.ts';

/** One per-request rule: what it does, in which phase, and on which routes (decided once per route). */
interface RequestStep {
  /** For errors and the architecture notes: `removed-gate`, `authenticate`. */
  name: string;
  phase: RequestPhase;
  /** Whether the step runs for a route; every route when absent. Asked once per route pattern. */
  appliesTo?: (route: RouteDescription) => boolean;
  /** May throw (the error becomes the answer) or return a promise, which alone is awaited. */
  run: (request: FastifyRequest, reply: FastifyReply, route: RouteDescription) => void | Promise<void>;
}

/** A rule on the way out (`onSend`): it sets headers, or returns a payload to send instead. */
interface ResponseStep {
  name: string;
  run: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => unknown;
}

/** The steps of one Fastify context, run by one `onRequest` and one `onSend` hook. */
export interface RequestPipeline {
  add(step: RequestStep): void;
  respond(step: ResponseStep): void;
}

const pipelines = new WeakMap<FastifyInstance, Map<string, RequestPipeline>>();
// Every pipeline of one server, whichever context holds it (the loop's parts may sit in a context
// the app cannot see into), so that a route's steps can be printed from the app.
const byServer = new WeakMap<object, Array<(url: string) => string[] | undefined>>();

/**
 * The per-request steps of the route registered at `url` (`/api/v2/users/:id`), in the order
 * they run, as `phase:name` (`identify:authenticate`), then the steps on the way out as
 * `respond:name`; none for a route no pipeline of the app's server described.
 *
 * @example
 * ```ts
 * await app.ready();
 * describeRequestSteps(app, '/api/v2/users/:id'); // ['gate:request-target', …, 'respond:…']
 * ```
 */
export function describeRequestSteps(app: FastifyInstance, url: string): string[] {
  return (byServer.get(app.server) ?? []).flatMap((describe) => describe(url) ?? []);
}

/**
 * The request pipeline of a Fastify context for an API under `prefix`, created (with its two
 * hooks) on first use. Without a prefix, the context's first pipeline (one for `/api` if it has
 * none): steps that apply to every route do not depend on it. Every feature of the context adds
 * its steps to it, so a request runs one hook that calls each step that applies to its route, in
 * phase order, and awaits only the steps that return a promise. Create it before the context's routes: each is described when it is
 * registered.
 *
 * @example
 * ```ts
 * requestPipeline(app, '/api').add({ name: 'nosniff', phase: 'gate', run: (_q, reply) => void reply.header('x-content-type-options', 'nosniff') });
 * ```
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

function createPipeline(app: FastifyInstance, scope: ApiScope): RequestPipeline {
  // Declared on the context, so every request has the member from the start (one object shape).
  if (!app.hasRequestDecorator('versionaryState')) app.decorateRequest('versionaryState', null);
  const steps: RequestStep[] = [];
  const responseSteps: ResponseStep[] = [];
  // Route patterns are few and fixed: each is described once (at onRoute, or on its first request).
  const described = new Map<string, RouteDescription>();
  const compiled = new Map<RouteDescription, RequestStep[]>();
  // The description of the route a request matched (or of its raw path, when none did).
  const describe = (request: FastifyRequest): RouteDescription => {
    const url = routeUrlOf(request);
    if (url === undefined) return describeRoute(scope, { url, path: request.url });
    let route = described.get(url);
    if (!route) described.set(url, (route = describeRoute(scope, { url, path: url })));
    return route;
  };
  const order = (phase: RequestPhase) => requestPhases.indexOf(phase);
  const stepsFor = (route: RouteDescription) => {
    const known = compiled.get(route);
    if (known) return known;
    const list = steps.filter((step) => step.appliesTo?.(route) ?? true);
    // A path with no route is described per request: its list is not kept.
    if (route.url !== undefined) compiled.set(route, list);
    return list;
  };
  app.addHook('onRoute', (route) => {
    if (!described.has(route.url)) described.set(route.url, describeRoute(scope, { url: route.url, path: route.url }));
  });
  let listed = byServer.get(app.server);
  if (!listed) byServer.set(app.server, (listed = []));
  listed.push((url) => {
    const route = described.get(url);
    if (!route) return undefined;
    return [
      ...stepsFor(route).map((step) => `${step.phase}:${step.name}`),
      ...responseSteps.map((step) => `respond:${step.name}`),
    ];
  });

  app.addHook('onRequest', (request, reply, done) => {
    const route = describe(request);
    const list = stepsFor(route);
    runSteps({ count: list.length, run: (i) => list[i]!.run(request, reply, route), reply }, done);
  });

  // eslint-disable-next-line max-params -- Fastify's callback onSend hook takes four
  app.addHook('onSend', (request, reply, payload, done: (error: Error | null, payload?: unknown) => void) => {
    const next = (from: number, current: unknown): void => {
      for (let i = from; i < responseSteps.length; i++) {
        let result: unknown;
        try {
          result = responseSteps[i]!.run(request, reply, current);
        } catch (error) {
          return done(error as Error);
        }
        if (result instanceof Promise) {
          result.then(
            (value: unknown) => next(i + 1, value === undefined ? current : value),
            (error: unknown) => done(error as Error),
          );
          return;
        }
        if (result !== undefined) current = result;
      }
      done(null, current);
    };
    next(0, payload);
  });

  return {
    add(step) {
      // Sorted on insertion: a phase's steps keep the order they were added in.
      const at = steps.findIndex((s) => order(s.phase) > order(step.phase));
      if (at === -1) steps.push(step);
      else steps.splice(at, 0, step);
      compiled.clear();
    },
    respond(step) {
      responseSteps.push(step);
    },
  };
}
