import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PayloadPhase, RequestPhase } from './phases.ts';
import type { RouteDescription } from './route-description.ts';

/** One per-request rule: what it does, in which phase, and on which routes (decided once per route). */
export interface RequestStep {
  name: string;
  phase: Exclude<RequestPhase, PayloadPhase>;
  /** Whether the step runs for a route and method; every one when absent. Asked once per route. */
  appliesTo?: (route: RouteDescription) => boolean;
  thin?: boolean;
  /** May throw (the error becomes the answer) or return a promise, which alone is awaited. */
  run: (request: FastifyRequest, reply: FastifyReply, route: RouteDescription) => unknown;
}

/** A rule that sees the payload (`respond` by default): it sets headers, or returns a payload to send instead. */
export interface PayloadStep {
  name: string;
  phase?: PayloadPhase;
  appliesTo?: (route: RouteDescription) => boolean;
  thin?: boolean;
  /** Given the route it is bound to after the payload, as a request step is (most ignore it). */
  // eslint-disable-next-line max-params -- Fastify's three payload arguments, then the route
  run: (request: FastifyRequest, reply: FastifyReply, payload: unknown, route: RouteDescription) => unknown;
}

/** The typed name of what a step is made from, a value so the http layer never names the loop's types. */
export interface StepKey<R> {
  /** For errors: the part or feature that provides it (`caching`, `rate-limit`). */
  readonly name: string;
  /** Never set: types the key by its resource (a key of `R` takes any resource assignable to `R`). */
  readonly resource?: (resource: R) => void;
}

/** A key for the resource of one or more steps. */
export function stepKey<R>(name: string): StepKey<R> {
  return { name };
}

interface DefinitionBase<R> {
  readonly name: string;
  readonly needs: StepKey<R>;
  /** Whether the step runs for a route and method; every one when absent. Asked once per route. */
  readonly appliesTo?: (route: RouteDescription, resources: R) => boolean;
  /** It runs on the thin data plane's request too: a route whose steps all say so may be served there. */
  readonly thin?: boolean;
}

/** `create` runs once, when the resource is provided; `undefined` when the feature is off. */
export interface RequestStepDefinition<R = never> extends DefinitionBase<R> {
  readonly phase: Exclude<RequestPhase, PayloadPhase>;
  readonly create: (resources: R) => RequestStep['run'] | undefined;
}

export interface PayloadStepDefinition<R = never> extends DefinitionBase<R> {
  readonly phase: PayloadPhase;
  readonly create: (resources: R) => PayloadStep['run'] | undefined;
}

/** One per-request rule: where it runs, what it needs, and how its run is made from that. */
export type StepDefinition<R = never> = RequestStepDefinition<R> | PayloadStepDefinition<R>;

/** A step a route brings itself (`routeSteps`), named in the list so the list still orders it. */
export interface RouteStepEntry {
  readonly phase: RequestPhase;
  readonly name: string;
  readonly needs?: undefined;
}

/** An entry of a product's list of steps: a definition, or a route's own step. */
export type ListedStep = StepDefinition | RouteStepEntry;

/** A step definition, typed by the key it needs: `create` gets that key's resource. */
export function defineStep<R>(definition: RequestStepDefinition<R>): RequestStepDefinition<R>;
export function defineStep<R>(definition: PayloadStepDefinition<R>): PayloadStepDefinition<R>;
export function defineStep<R>(definition: StepDefinition<R>): StepDefinition<R> {
  return definition;
}

export function routeStep(phase: RequestPhase, name: string): RouteStepEntry {
  return { phase, name };
}

export function stepId(step: { phase: RequestPhase; name: string }): string {
  return `${step.phase}:${step.name}`;
}
