import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RoutePlan } from './compile-route.ts';

type Done = (error?: Error) => void;
type PayloadDone = (error: Error | null, payload?: unknown) => void;
type StageFn = (request: FastifyRequest, reply: FastifyReply, done: Done) => void;
// eslint-disable-next-line max-params -- Fastify's callback payload hooks take four
type PayloadFn = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: PayloadDone) => void;

type WithPlan = FastifyRequest & { versionaryPlan: RoutePlan | null };

/**
 * The pipeline's hooks, one per Fastify stage, the only request-stage hooks of the product: each
 * runs the matched route's compiled function for its stage, or returns at once when the route has
 * no step there. Added when the pipeline is made, before any plugin context, so that every route
 * of the context (the forwarded API's too) meets them, before the app's own hooks of each stage.
 *
 * The route's plan is looked up once per request and kept on the request (`versionaryPlan`), so
 * the later stages read one member. A request a second pipeline also serves (an outer context's)
 * keeps the first one's plan there; the others keep theirs aside. A handler that hands the request
 * to the not-found route (`reply.callNotFound()`) changes its route: its plan is looked up again.
 */
export function installStageHooks(
  app: FastifyInstance,
  owner: object,
  resolve: (request: FastifyRequest) => RoutePlan,
): void {
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
