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
