import type { PayloadPhase, RequestPhase } from './phases.ts';
import type { RouteDescription } from './route-description.ts';
import type { PayloadStep, RequestStep } from './step-types.ts';

/**
 * The name of what a step is made from (a part's clock, store, cache, options), typed by it: the
 * step says it `needs` the key, the part that installs it provides the key's resource
 * (`provideSteps(app, [[key, resource]])`). A value, so the http layer never names the loop's types
 * and no shared interface is extended by declaration merging.
 */
export interface StepKey<R> {
  /** For errors: the part or feature that provides it (`caching`, `rate-limit`). */
  readonly name: string;
  /** Never set: types the key by its resource (a key of `R` takes any resource assignable to `R`). */
  readonly resource?: (resource: R) => void;
}

/**
 * A key for the resource of one or more steps.
 *
 * @example
 * ```ts
 * export const cachingKey = stepKey<CachingOptions>('caching');
 * ```
 */
export function stepKey<R>(name: string): StepKey<R> {
  return { name };
}

interface DefinitionBase<R> {
  /** For errors and the architecture notes: `removed-gate`, `authenticate`. */
  readonly name: string;
  /** What `create` and `appliesTo` are given: the resource its part provides for this key. */
  readonly needs: StepKey<R>;
  /** Whether the step runs for a route and method; every one when absent. Asked once per route. */
  readonly appliesTo?: (route: RouteDescription, resources: R) => boolean;
  /**
   * The step runs on the thin data plane's request too (`ThinRequest`, `http/thin`): it reads only
   * the members that has. A route whose steps all say so may be served by the thin data plane.
   */
  readonly thin?: boolean;
}

/** A step of a phase that does not see the payload; `create` runs once, when its resource is provided. */
export interface RequestStepDefinition<R = never> extends DefinitionBase<R> {
  readonly phase: Exclude<RequestPhase, PayloadPhase>;
  /** The step's run for these resources, or `undefined` when the feature is off (no store, an option false). */
  readonly create: (resources: R) => RequestStep['run'] | undefined;
}

/** A step that sees the payload (`serialize`, `respond`): it sets headers, or returns a payload to send instead. */
export interface PayloadStepDefinition<R = never> extends DefinitionBase<R> {
  readonly phase: PayloadPhase;
  readonly create: (resources: R) => PayloadStep['run'] | undefined;
}

/**
 * One per-request rule: where it runs, what it needs, and how its run is made from that. A
 * definition of any resource is a `StepDefinition` (its `never` default): it takes its resource only.
 */
export type StepDefinition<R = never> = RequestStepDefinition<R> | PayloadStepDefinition<R>;

/**
 * A step a route brings itself (`config: routeSteps([...])`: a version's negotiation, lifecycle
 * and input steps, built per operation). A list names it so that the list still orders it and the
 * pipeline still refuses a route step the list does not name.
 */
export interface RouteStepEntry {
  readonly phase: RequestPhase;
  readonly name: string;
  readonly needs?: undefined;
}

/** An entry of a product's list of steps: a definition, or a route's own step. */
export type ListedStep = StepDefinition | RouteStepEntry;

/**
 * A step definition, typed by the key it needs: `create` gets that key's resource.
 *
 * @example
 * ```ts
 * const tenantKey = stepKey<{ check: (request: FastifyRequest) => void }>('tenant');
 * export const tenantStep = defineStep({ needs: tenantKey, phase: 'check', name: 'tenant', create: (o) => (request) => o.check(request) });
 * ```
 */
export function defineStep<R>(definition: RequestStepDefinition<R>): RequestStepDefinition<R>;
export function defineStep<R>(definition: PayloadStepDefinition<R>): PayloadStepDefinition<R>;
export function defineStep<R>(definition: StepDefinition<R>): StepDefinition<R> {
  return definition;
}

/** The list entry of a step that routes bring themselves (`routeStep('version', 'negotiate')`). */
export function routeStep(phase: RequestPhase, name: string): RouteStepEntry {
  return { phase, name };
}

/** `phase:name`, as the pipeline orders and prints steps. */
export function stepId(step: { phase: RequestPhase; name: string }): string {
  return `${step.phase}:${step.name}`;
}
