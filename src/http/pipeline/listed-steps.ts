import type { FastifyInstance } from 'fastify';
import { requestPipeline, type RequestPipeline } from './request-pipeline.ts';
import type { PayloadPhase } from './phases.ts';
import { stepKey, type ListedStep, type StepPart, type StepResources } from './step-definition.ts';

// The list each pipeline was given, for the parts that install into it after.
const lists = new WeakMap<RequestPipeline, readonly ListedStep[]>();

/**
 * Give the context's pipeline for `prefix` the product's list of steps: its steps then run in the
 * list's order within each phase, a step (or route step) it does not name is refused, and every
 * part installs its steps from it ({@link installListedSteps}). Set it before the first part installs.
 *
 * @example
 * ```ts
 * listSteps(app, loopSteps, '/api');
 * ```
 */
export function listSteps(app: FastifyInstance, list: readonly ListedStep[], prefix?: string): void {
  const pipeline = requestPipeline(app, prefix);
  lists.set(pipeline, list);
  pipeline.order(list.map(stepKey));
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

const payloadPhases: ReadonlySet<string> = new Set<PayloadPhase>(['serialize', 'respond']);

/**
 * Install every step of the context's list ({@link listSteps}, {@link defaultSteps}) that belongs to `part`, in list order, each made once from `resources`; a definition whose `create`
 * returns `undefined` is off (no store, an option false) and is not added. A part calls it once:
 * adding a rule is its step file and its line in the list, never a call here.
 *
 * @example
 * ```ts
 * installListedSteps(app, 'caching', { isPrivate });
 * installListedSteps({ app, prefix: '/api' }, 'rate-limit', options); // the pipeline of that prefix
 * ```
 */
export function installListedSteps<P extends StepPart>(
  context: FastifyInstance | { app: FastifyInstance; prefix?: string | undefined },
  part: P,
  resources: StepResources[P],
): void {
  // A Fastify instance has `addHook`; the other form names the prefix of the pipeline it means.
  const pipeline = 'addHook' in context ? requestPipeline(context) : requestPipeline(context.app, context.prefix);
  const list = lists.get(pipeline);
  if (!list) throw new Error(`The steps of ${part} are installed into a context that has no list of steps.`);
  for (const entry of list) {
    if (entry.part !== part) continue;
    // The entry is this part's: its resources are the ones `create` and `appliesTo` are typed for.
    const definition = entry as unknown as {
      name: string;
      phase: ListedStep['phase'];
      appliesTo?: (route: never, resources: StepResources[P]) => boolean;
      create: (resources: StepResources[P]) => ((...args: never[]) => unknown) | undefined;
    };
    const run = definition.create(resources);
    if (!run) continue;
    const { name, phase } = definition;
    const applies = definition.appliesTo;
    const appliesTo = applies ? { appliesTo: (route: never) => applies(route, resources) } : {};
    if (payloadPhases.has(phase)) pipeline.respond({ name, phase: phase as PayloadPhase, ...appliesTo, run } as never);
    else pipeline.add({ name, phase, ...appliesTo, run } as never);
  }
}
