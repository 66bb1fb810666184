import type { FastifyInstance } from 'fastify';

/** Headers every response carries, whatever its status. */
export const securityHeaders = { 'x-content-type-options': 'nosniff' } as const;

/**
 * Add {@link securityHeaders} to every response Fastify sends: successes, problems, 404s and
 * parser errors alike. `nosniff` stops a browser from reading a JSON body (echoed input
 * included) as HTML or script.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  // onRequest so a reply sent from any later hook has them; onSend for errors raised before routing.
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(securityHeaders);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(securityHeaders);
    return payload;
  });
}
