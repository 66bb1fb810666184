import type { FastifyReply } from 'fastify';
import { defineStep, stepKey } from './pipeline/step-definition.ts';

/** Headers every response carries, whatever its status. */
export const securityHeaders = { 'x-content-type-options': 'nosniff' } as const;

/** `nosniff` on every response stops a browser from reading a JSON body (echoed input) as HTML or script. */
export const securityHeadersKey = stepKey<object>('security-headers');

// In the first phase so a reply sent from any later step has them; on the way out for errors
// raised before routing.
const set = (_request: unknown, reply: FastifyReply) => void reply.headers(securityHeaders);

export const securityHeadersStep = defineStep({
  needs: securityHeadersKey,
  name: 'security-headers',
  thin: true,
  phase: 'gate',
  create: () => set,
});

export const securityHeadersResponseStep = defineStep({
  needs: securityHeadersKey,
  name: 'security-headers',
  thin: true,
  phase: 'respond',
  create: () => set,
});
