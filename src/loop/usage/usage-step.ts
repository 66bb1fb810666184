import type { FastifyRequest } from 'fastify';
import { stateKey, stateOf } from '../../http/pipeline/request-state.ts';
import { defineStep, stepKey } from '../../http/pipeline/step-definition.ts';

/** The usage this request would record, written once its answer is known to count (`after:usage`). */
const usageSlot = stateKey<Array<() => void>>('usage');

/** Provided by the usage part: its step needs nothing else. */
export const usageKey = stepKey<object>('usage');

// Refusals: no credential (401), not allowed or closed to new clients (403), removed or in a
// brownout (410), over a rate limit (429). A refused call is not usage.
const refusals: ReadonlySet<number> = new Set([401, 403, 410, 429]);

/**
 * Record a call's usage (its deprecated-call record, its operation count) once it is answered,
 * and only if the answer was not a refusal: see {@link usageStep}.
 */
export function deferUsage(request: FastifyRequest, write: () => void): void {
  const pending = usageSlot.get(request);
  if (pending) pending.push(write);
  else usageSlot.set(request, [write]);
}

/**
 * The `after:usage` step: a request's usage is written once its answer is sent, unless the
 * service refused it (a 401, 403, 410 or 429, or a removal answered as 404 or 400). A client that
 * left before its answer is not counted either: `after` does not run for it.
 */
export const usageStep = defineStep({
  needs: usageKey,
  name: 'usage',
  thin: true,
  phase: 'after',
  create: () => (request, reply) => {
    const pending = usageSlot.get(request);
    if (!pending) return;
    usageSlot.set(request, undefined);
    if (refusals.has(reply.statusCode) || stateOf(request).refused === true) return;
    for (const write of pending) write();
  },
});
