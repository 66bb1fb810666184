import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import type { Client, ClientStore, UsageStore } from '../../kernel/ports/index.ts';
import { at, calls, filterOf, readWindow, text } from './usage-routes.ts';
import { instantInput, problems } from '../host/admin-route-schemas.ts';

export interface OperationUsageRouteOptions {
  usage: UsageStore;
  clients: ClientStore;
  clock: Clock;
  /** The API prefix the served documents put before `/<version>`. */
  prefix: string;
  /** Writes the counts still in memory, so the answer includes every call made so far. */
  flush: () => Promise<void>;
}

const lookbackDays = 7;
const maxRows = 100_000;
// A filter given empty is refused, never read as "no filter".
const filter = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, description });

const OperationQuery = Type.Object(
  {
    version: Type.Optional(filter(20, 'Only this version (`v2`).')),
    client: Type.Optional(
      filter(200, 'A client id (cl_…), or the identifier calls without a client are counted under.'),
    ),
    since: Type.Optional(
      instantInput(`ISO 8601 instant; ${lookbackDays} days ago by default. Read from the start of its UTC hour.`),
    ),
    until: Type.Optional(instantInput('ISO 8601 instant (exclusive: the hours that start before it); now by default.')),
  },
  { additionalProperties: false },
);

const OperationUsageSchema = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        version: text(20),
        endpoint: text(400, 'Method and path template without the prefix and version, for example `GET /users/{id}`.'),
        clientId: text(200),
        clientName: Type.Union([text(200), Type.Null()], {
          description: 'null when the calls were made without a registered client.',
        }),
        contact: Type.Boolean({
          description: 'Whether notices can reach the client: a subscribed email contact or a webhook.',
        }),
        calls: calls('Calls in the window.'),
        lastSeen: at('Latest call in the window.'),
      }),
      { maxItems: maxRows },
    ),
    meta: Type.Object({
      since: at('Start of the window: the start of the UTC hour of `since`.'),
      until: at('End of the window (exclusive).'),
      prefix: text(
        200,
        'The API prefix before `/<version>` in the served documents: `/api/v2/users/{id}` is version `v2`, endpoint `GET /users/{id}`.',
      ),
    }),
  },
  { description: 'Calls per version, operation and client, of every version' },
);

const reachable = (client: Client) => client.webhooks.length > 0 || client.contacts.some((c) => c.subscribed);

/** `GET /admin/v1/usage/operations`: what `versionary diff` asks to know who a change would break. */
export function registerOperationUsageRoute(app: FastifyInstance, options: OperationUsageRouteOptions): void {
  app.get(
    '/usage/operations',
    {
      schema: {
        operationId: 'usage.operations',
        summary: 'Calls of every version per operation and client',
        tags: ['usage'],
        querystring: OperationQuery,
        description:
          'Hourly counts of every call to every version (deprecated or not), summed over the window: who calls which operation, and whether notices can reach them.',
        response: {
          200: OperationUsageSchema,
          ...problems({ 400: 'An invalid query parameter, or since not before until' }),
        },
      },
    },
    async (request) => {
      const query = request.query as Record<string, string | undefined>;
      const window = readWindow(query, options.clock.now(), lookbackDays);
      await options.flush();
      const rows = await options.usage.operationUsage(filterOf(query, window));
      const clients = new Map((await options.clients.findMany(rows.map((r) => r.clientId))).map((c) => [c.id, c]));
      return {
        data: rows.map((r) => {
          const client = clients.get(r.clientId);
          return {
            version: r.version,
            endpoint: r.endpoint,
            clientId: r.clientId,
            clientName: client?.name ?? null,
            contact: client ? reachable(client) : false,
            calls: r.calls,
            lastSeen: formatIsoInstant(r.lastSeen),
          };
        }),
        meta: {
          since: formatIsoInstant(Math.floor(window.since / 3_600_000) * 3_600_000),
          until: formatIsoInstant(window.until),
          prefix: options.prefix,
        },
      };
    },
  );
}
