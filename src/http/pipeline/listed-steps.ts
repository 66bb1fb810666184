import type { FastifyInstance } from 'fastify';
import { requestPipeline, type RequestPipeline } from './request-pipeline.ts';
import type { PayloadPhase } from './phases.ts';
import type { RouteDescription } from './route-description.ts';
import {
  stepId,
  type ListedStep,
  type PayloadStepDefinition,
  type StepDefinition,
  type StepKey,
} from './step-definition.ts';

// The list each pipeline was given, for the parts that provide its steps' resources after.
const lists = new WeakMap<RequestPipeline, readonly ListedStep[]>();

/**
 * Give the context's pipeline for `prefix` the product's list of steps: its steps then run in the
 * list's order within each phase, a step (or route step) it does not name is refused, and every
 * part's steps are installed from it ({@link provideSteps}). Set it before the first part provides.
 *
 * @example
 * ```ts
 * listSteps(app, loopSteps, '/api');
 * ```
 */
export function listSteps(app: FastifyInstance, list: readonly ListedStep[], prefix?: string): void {
  const pipeline = requestPipeline(app, prefix);
  lists.set(pipeline, list);
  pipeline.order(list.map(stepId));
}

/**
 * The list of a context whose product gave none (the plugin on an app without the loop): its parts
 * install their steps from it, in its order, but the pipeline does not refuse steps it does not
 * name. A context that has a list keeps it.
 */
export function defaultSteps(app: FastifyInstance, list: readonly ListedStep[], prefix?: string): void {
  const pipeline = requestPipeline(app, prefix);
  if (!lists.has(pipeline)) lists.set(pipeline, list);
}

/** A key and the resource a part provides for it: `[cachingKey, { isPrivate }]`. */
export type StepProvision<R> = readonly [key: StepKey<R>, resource: R];

type Context = FastifyInstance | { app: FastifyInstance; prefix?: string | undefined };

const payloadPhases: ReadonlySet<string> = new Set<PayloadPhase>(['serialize', 'respond']);

/**
 * Provide resources for the context's list of steps ({@link listSteps}, {@link defaultSteps}):
 * every step of the list that `needs` one of the keys is made once from its resource and
 * installed, in list order; a definition whose `create` returns `undefined` is off (no store, an
 * option false) and is not added. Adding a rule is its step value and its line in the list; the
 * part that owns the resource names its key here, never the step.
 *
 * @example
 * ```ts
 * provideSteps(app, [[cachingKey, { isPrivate }]]);
 * provideSteps({ app, prefix: '/api' }, [[rateLimitKey, limits], [addressRateLimitKey, limits]]);
 * ```
 */
export function provideSteps<T extends readonly unknown[]>(
  context: Context,
  provisions: { readonly [I in keyof T]: StepProvision<T[I]> },
): void {
  // A Fastify instance has `addHook`; the other form names the prefix of the pipeline it means.
  const pipeline = 'addHook' in context ? requestPipeline(context) : requestPipeline(context.app, context.prefix);
  const given = new Map<StepKey<never>, unknown>(provisions as readonly StepProvision<never>[]);
  const list = lists.get(pipeline);
  if (!list) {
    const names = [...given.keys()].map((key) => key.name).join(', ');
    throw new Error(`The steps of ${names} are provided to a context that has no list of steps.`);
  }
  for (const entry of list) {
    if (entry.needs === undefined || !given.has(entry.needs)) continue;
    install(pipeline, entry, given.get(entry.needs) as never);
  }
}

function install(pipeline: RequestPipeline, definition: StepDefinition, resource: never): void {
  const { name, thin = false } = definition;
  const applies = definition.appliesTo;
  const appliesTo = applies ? { appliesTo: (route: RouteDescription) => applies(route, resource) } : {};
  if (isPayloadStep(definition)) {
    const run = definition.create(resource);
    if (run) pipeline.respond({ name, phase: definition.phase, thin, ...appliesTo, run });
  } else {
    const run = definition.create(resource);
    if (run) pipeline.add({ name, phase: definition.phase, thin, ...appliesTo, run });
  }
}

function isPayloadStep(definition: StepDefinition): definition is PayloadStepDefinition {
  return payloadPhases.has(definition.phase);
}
