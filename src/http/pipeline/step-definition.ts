import type { PayloadPhase, RequestPhase } from './phases.ts';
import type { RouteDescription } from './route-description.ts';
import type { PayloadStep, RequestStep } from './step-types.ts';

/**
 * What each part hands its steps when it installs them: its clock, store, cache, options. Each
 * step file adds its part's entry (`declare module` …`interface StepResources { caching: CachingOptions }`),
 * so `create` is typed by its `part`, and the http layer never names the loop's types.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging, one entry per part
export interface StepResources {}

/** A part that installs steps: a key of {@link StepResources}. */
export type StepPart = keyof StepResources;

interface DefinitionBase<P extends StepPart> {
  /** For errors and the architecture notes: `removed-gate`, `authenticate`. */
  readonly name: string;
  /** Who installs the step (`installListedSteps(app, part, resources)`), and so what `create` is given. */
  readonly part: P;
  /** Whether the step runs for a route and method; every one when absent. Asked once per route. */
  readonly appliesTo?: (route: RouteDescription, resources: StepResources[P]) => boolean;
}

/** A step of a phase that does not see the payload; `create` runs once, when its part installs. */
export interface RequestStepDefinition<P extends StepPart = StepPart> extends DefinitionBase<P> {
  readonly phase: Exclude<RequestPhase, PayloadPhase>;
  /** The step's run for these resources, or `undefined` when the feature is off (no store, an option false). */
  readonly create: (resources: StepResources[P]) => RequestStep['run'] | undefined;
}

/** A step that sees the payload (`serialize`, `respond`): it sets headers, or returns a payload to send instead. */
export interface PayloadStepDefinition<P extends StepPart = StepPart> extends DefinitionBase<P> {
  readonly phase: PayloadPhase;
  readonly create: (resources: StepResources[P]) => PayloadStep['run'] | undefined;
}

/** One per-request rule: where it runs, who installs it, and how its run is made from the part's resources. */
export type StepDefinition<P extends StepPart = StepPart> = RequestStepDefinition<P> | PayloadStepDefinition<P>;

/**
 * A step a route brings itself (`config: routeSteps([...])`: a version's negotiation, lifecycle
 * and input steps, built per operation). A list names it so that the list still orders it and the
 * pipeline still refuses a route step the list does not name.
 */
export interface RouteStepEntry {
  readonly phase: RequestPhase;
  readonly name: string;
  readonly part?: undefined;
}

/** An entry of a product's list of steps: a definition, or a route's own step. */
export type ListedStep = { [P in StepPart]: StepDefinition<P> }[StepPart] | RouteStepEntry;

/**
 * A step definition, typed by its part: `create` gets that part's resources.
 *
 * @example
 * ```ts
 * export const tenantStep = defineStep({ part: 'tenant', phase: 'check', name: 'tenant', create: (o) => (request) => o.check(request) });
 * ```
 */
export function defineStep<P extends StepPart>(definition: RequestStepDefinition<P>): RequestStepDefinition<P>;
export function defineStep<P extends StepPart>(definition: PayloadStepDefinition<P>): PayloadStepDefinition<P>;
export function defineStep<P extends StepPart>(definition: StepDefinition<P>): StepDefinition<P> {
  return definition;
}

/** The list entry of a step that routes bring themselves (`routeStep('version', 'negotiate')`). */
export function routeStep(phase: RequestPhase, name: string): RouteStepEntry {
  return { phase, name };
}

/** `phase:name`, as the pipeline orders and prints steps. */
export function stepKey(step: { phase: RequestPhase; name: string }): string {
  return `${step.phase}:${step.name}`;
}
