import type { FastifyInstance, FastifyReply } from 'fastify';
import { installListedSteps } from './pipeline/listed-steps.ts';
import { defineStep } from './pipeline/step-definition.ts';

/** Headers every response carries, whatever its status. */
export const securityHeaders = { 'x-content-type-options': 'nosniff' } as const;

/**
 * Add {@link securityHeaders} to every response Fastify sends: successes, problems, 404s and
 * parser errors alike. `nosniff` stops a browser from reading a JSON body (echoed input
 * included) as HTML or script.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  installListedSteps(app, 'security-headers', {});
}

declare module './pipeline/step-definition.ts' {
  interface StepResources {
    'security-headers': Record<string, never>;
  }
}

// In the first phase so a reply sent from any later step has them; on the way out for errors
// raised before routing.
const set = (_request: unknown, reply: FastifyReply) => void reply.headers(securityHeaders);

/** The `gate:security-headers` step of {@link installSecurityHeaders}. */
export const securityHeadersStep = defineStep({
  part: 'security-headers',
  name: 'security-headers',
  phase: 'gate',
  create: () => set,
});

/** The `respond:security-headers` step of {@link installSecurityHeaders}. */
export const securityHeadersResponseStep = defineStep({
  part: 'security-headers',
  name: 'security-headers',
  phase: 'respond',
  create: () => set,
});
