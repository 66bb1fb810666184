import type { FastifyInstance, FastifyReply } from 'fastify';
import { requestPipeline } from './pipeline/request-pipeline.ts';

/** Headers every response carries, whatever its status. */
export const securityHeaders = { 'x-content-type-options': 'nosniff' } as const;

/**
 * Add {@link securityHeaders} to every response Fastify sends: successes, problems, 404s and
 * parser errors alike. `nosniff` stops a browser from reading a JSON body (echoed input
 * included) as HTML or script.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  // In the first phase so a reply sent from any later step has them; on the way out for errors
  // raised before routing.
  const pipeline = requestPipeline(app);
  const set = (_request: unknown, reply: FastifyReply) => void reply.headers(securityHeaders);
  pipeline.add({ name: 'security-headers', phase: 'gate', run: set });
  pipeline.respond({ name: 'security-headers', run: set });
}
