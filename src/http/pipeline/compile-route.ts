import { composePayloadSteps, composeSteps, type BoundPayloadStep, type BoundStep } from './compose.ts';
import { stageOf, type PayloadPhase, type RequestPhase, type RequestStage } from './phases.ts';
import type { RouteDescription } from './route-description.ts';
import type { PayloadStep, RequestStep } from './step-types.ts';

export type Stage = (...args: never[]) => void;

/** A route's steps, compiled: one function per Fastify stage that has steps, and their names. */
export interface RoutePlan {
  readonly names: readonly string[];
  /** The pipeline that compiled it (its stage hooks know their own plans from another pipeline's). */
  readonly owner: object;
  /** Whether it is a matched route's (not the plan of a path with no route). */
  readonly routed: boolean;
  /** Every step of the plan runs on the thin data plane's request too (each step's `thin`). */
  readonly thin: boolean;
  readonly stages: Readonly<Partial<Record<RequestStage, Stage>>>;
}

const payloadPhases: ReadonlySet<RequestPhase> = new Set<PayloadPhase>(['serialize', 'respond']);

/**
 * Compose the steps that apply to `route`, already in order, into one function per stage. Each
 * step is bound to the route once, so a step's run is called with what it needs and nothing is
 * looked up per request. Until the reply is sent: the stages before the handler stop there.
 */
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
