import type { FastifyInstance } from 'fastify';
import { ErrorCode, errorTitles } from '../../core/errors/index.ts';
import { statusOf } from '../../http/index.ts';

/**
 * Serve a short page per problem type at `/problems/<slug>`, so each problem's `type` URI
 * resolves to something a person can read.
 */
export function registerProblemDocs(app: FastifyInstance): void {
  const bySlug = new Map(Object.values(ErrorCode).map((code) => [code.toLowerCase().replaceAll('_', '-'), code]));
  app.get('/problems/:slug', async (request, reply) => {
    const code = bySlug.get((request.params as { slug: string }).slug);
    if (!code) return reply.callNotFound();
    return { code, title: errorTitles[code], status: statusOf[code], documentation: 'docs/errors.md' };
  });
}
