import type { FastifyInstance } from 'fastify';
import type { DecisionTables } from '../../lifecycle/decision-table/tables.ts';
import { problem } from '../../host/admin-route-schemas.ts';

/** `GET /admin/v1/decision-table`: the rules' table every data plane enforces, as compiled now. */
const decisionTableSchema = {
  operationId: 'decisionTable.get',
  querystring: { type: 'object', properties: {}, additionalProperties: false },
  summary: 'The decision table every data plane enforces',
  tags: ['documents'],
  description:
    'The request rules compiled from the live lifecycle (versions, schedules, endpoint and element deprecations, extended access per client, closings to new clients, brownouts, rate-limit policies), with every header value and problem pre-rendered: what the service, the gateway and nginx decide each request from (`docs/decision-table.md`). Its `ETag` is the generation; `If-None-Match` answers 304 while it has not moved. One document, not a collection: its path is singular (`x-lint-skip`).',
  'x-lint-skip': ['collection-not-plural'],
  response: {
    200: {
      type: 'object',
      description: 'The decision table, format 1',
      properties: {
        format: { type: 'integer', format: 'int32', minimum: 1, maximum: 1 },
        generation: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        compiledAt: { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['format', 'generation', 'compiledAt'],
      additionalProperties: true,
    },
    400: problem('An unknown query parameter'),
  },
};

/** Serve the decision table to admin keys, with its generation as the `ETag`. */
export function registerDecisionTableRoute(app: FastifyInstance, options: { tables: DecisionTables }): void {
  app.get('/decision-table', { schema: decisionTableSchema }, async (_request, reply) => {
    const table = await options.tables.current();
    // The caching step answers 304 on a matching If-None-Match, and keeps this tag.
    reply.header('etag', `"${table.generation}"`);
    return table;
  });
}
