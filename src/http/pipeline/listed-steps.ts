import type { FastifyInstance } from 'fastify';
import { requestPipeline, type RequestPipeline } from './request-pipeline.ts';
import type { RouteDescription } from './route-description.ts';
import { stepId, type ListedStep, type StepDefinition, type StepKey } from './step-definition.ts';

// The list each pipeline was given, for the parts that provide its steps' resources after.
const lists = new WeakMap<RequestPipeline, readonly ListedStep[]>();

/** Give the context's pipeline the product's list of steps: it orders them and refuses any other. */
export function listSteps(app: FastifyInstance, list: readonly ListedStep[], prefix?: string): void {
  const pipeline = requestPipeline(app, prefix);
  lists.set(pipeline, list);
  pipeline.order(list.map(stepId));
}

/** The list of a context whose product gave none (the plugin alone): it orders but refuses nothing. */
export function defaultSteps(app: FastifyInstance, list: readonly ListedStep[], prefix?: string): void {
  const pipeline = requestPipeline(app, prefix);
  if (!lists.has(pipeline)) lists.set(pipeline, list);
}

/** A key and the resource a part provides for it: `[cachingKey, { isPrivate }]`. */
export type StepProvision<R> = readonly [key: StepKey<R>, resource: R];

type Context = FastifyInstance | { app: FastifyInstance; prefix?: string | undefined };

/** Install, in list order, every listed step that `needs` one of the keys, made from its resource. */
export function provideSteps<T extends readonly unknown[]>(
  context: Context,
  provisions: { readonly [I in keyof T]: StepProvision<T[I]> },
): void {
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
  const { name, phase, thin = false } = definition;
  const applies = definition.appliesTo;
  const run = definition.create(resource);
  if (!run) return;
  const appliesTo = applies ? { appliesTo: (route: RouteDescription) => applies(route, resource) } : {};
  pipeline.add({ name, phase, thin, ...appliesTo, run } as Parameters<RequestPipeline['add']>[0]);
}
