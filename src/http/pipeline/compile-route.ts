import type { FastifyReply, FastifyRequest } from 'fastify';
import { stageOf, type PayloadPhase, type RequestPhase, type RequestStage } from './phases.ts';
import type { RouteDescription } from './route-description.ts';
import type { PayloadStep, RequestStep } from './step-definition.ts';

export type Stage = (...args: never[]) => void;

/** A route's steps, compiled: one function per Fastify stage that has steps, and their names. */
export interface RoutePlan {
  readonly names: readonly string[];
  /** The pipeline that compiled it. */
  readonly owner: object;
  /** A matched route's, not a path with no route. */
  readonly routed: boolean;
  /** Every step of the plan is `thin`. */
  readonly thin: boolean;
  readonly stages: Readonly<Partial<Record<RequestStage, Stage>>>;
}

const payloadPhases: ReadonlySet<RequestPhase> = new Set<PayloadPhase>(['serialize', 'respond']);

/** One function per stage of the route's steps, each bound to the route once. */
export function compileRoute(
  route: RouteDescription,
  steps: ReadonlyArray<RequestStep | (PayloadStep & { phase: PayloadPhase })>,
  owner: object,
): RoutePlan {
  const byStage = new Map<RequestStage, Array<BoundStep | BoundPayloadStep>>();
  for (const step of steps) {
    const stage = stageOf[step.phase];
    let list = byStage.get(stage);
    if (!list) byStage.set(stage, (list = []));
    if (payloadPhases.has(step.phase)) {
      const run = (step as PayloadStep).run;
      const bound: BoundPayloadStep = (request, reply, payload) => run(request, reply, payload, route);
      list.push(bound);
    } else {
      const run = (step as RequestStep).run;
      const bound: BoundStep = (request, reply) => run(request, reply, route);
      list.push(bound);
    }
  }
  const stages: Partial<Record<RequestStage, Stage>> = {};
  for (const [stage, list] of byStage) {
    const composed =
      stage === 'onSend' || stage === 'preSerialization'
        ? composePayloadSteps(list as BoundPayloadStep[])
        : composeSteps(list as BoundStep[], stage !== 'onResponse' && stage !== 'onRequestAbort');
    if (composed) stages[stage] = composed as Stage;
  }
  return {
    names: steps.map((step) => `${step.phase}:${step.name}`),
    owner,
    routed: route.url !== undefined,
    thin: steps.every((step) => step.thin === true),
    stages,
  };
}

type BoundStep = (request: FastifyRequest, reply: FastifyReply) => unknown;
type BoundPayloadStep = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => unknown;

export type Done = (error?: Error) => void;
export type PayloadDone = (error: Error | null, payload?: unknown) => void;

/**
 * One function for a stage's steps: only a step that returns a promise is awaited (Hono's `compose`);
 * with `untilSent`, a step that sent the reply ends the stage.
 */
function composeSteps(steps: readonly BoundStep[], untilSent: boolean) {
  if (steps.length === 0) return undefined;
  if (steps.length === 1) {
    // Not composed when there is one step (Hono: "Do not `compose` if it has only one handler").
    const [only] = steps as [BoundStep];
    return (request: FastifyRequest, reply: FastifyReply, done: Done): void => {
      let result: unknown;
      try {
        result = only(request, reply);
      } catch (error) {
        return done(error as Error);
      }
      if (isThenable(result)) result.then(() => done(), done);
      else done();
    };
  }
  return (request: FastifyRequest, reply: FastifyReply, done: Done): void => {
    const next = (from: number): void => {
      for (let i = from; i < steps.length; i++) {
        let result: unknown;
        try {
          result = steps[i]!(request, reply);
        } catch (error) {
          return done(error as Error);
        }
        if (untilSent && reply.sent) return done();
        if (isThenable(result)) {
          result.then(
            () => (untilSent && reply.sent ? done() : next(i + 1)),
            (error: unknown) => done(error as Error),
          );
          return;
        }
      }
      done();
    };
    next(0);
  };
}

/** One function for a payload stage's steps: each may replace the payload, the next sees it. */
function composePayloadSteps(steps: readonly BoundPayloadStep[]) {
  if (steps.length === 0) return undefined;
  // eslint-disable-next-line max-params -- Fastify's callback payload hooks take four
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: PayloadDone): void => {
    const next = (from: number, current: unknown): void => {
      for (let i = from; i < steps.length; i++) {
        let result: unknown;
        try {
          result = steps[i]!(request, reply, current);
        } catch (error) {
          return done(error as Error);
        }
        if (isThenable(result)) {
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
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
