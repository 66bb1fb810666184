import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../core/time/index.ts';
import type { Client } from '../../kernel/ports/index.ts';
import { adminRoute, count, instant, instantInput, nullable } from '../host/admin-route-schemas.ts';
import type { ServiceContext } from '../host/feature.ts';
import type { LoopUsage } from './install-usage.ts';

const defaultLookbackDays = 90;
const operationLookbackDays = 7;
// The answers are aggregates over at most the stored usage: bounded by clients × versions × endpoints, stated generously.
const maxRows = 100_000;
const text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) });
// A filter given empty is refused, never read as "no filter".
const filter = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, description });
const clientName = () => nullable(text(200), 'null when the calls were made without a registered client.');

/** A query's `version` and `client` filters and its window, each described for its route. */
const windowQuery = (
  field: (maxLength: number, description: string) => TSchema,
  described: { version: string; since: string; until: string },
) =>
  Type.Object(
    {
      version: Type.Optional(field(20, described.version)),
      client: Type.Optional(
        field(200, 'A client id (cl_…), or the identifier calls without a client are counted under.'),
      ),
      since: Type.Optional(instantInput(described.since)),
      until: Type.Optional(instantInput(described.until)),
    },
    { additionalProperties: false },
  );

const WindowQuery = windowQuery(text, {
  version: 'Only this version (`v1`).',
  since: `ISO 8601 instant; ${defaultLookbackDays} days ago by default.`,
  until: 'ISO 8601 instant (exclusive); now by default.',
});

const windowMeta = Type.Object({
  since: instant('Start of the window.'),
  until: instant('End of the window (exclusive).'),
});
/** An answer: its rows, at most {@link maxRows}, and the window they cover. */
const listOf = (row: TSchema, description: string, meta: TSchema = windowMeta) =>
  Type.Object({ data: Type.Array(row, { maxItems: maxRows }), meta }, { description });
const clientVersion = { clientId: text(200), clientName: clientName(), version: text(20) };
const seen = {
  calls: count('Calls in the window.'),
  firstSeen: instant('First call in the window.'),
  lastSeen: instant('Latest call in the window.'),
};

const reachable = (client: Client) => client.webhooks.length > 0 || client.contacts.some((c) => c.subscribed);

type Query = Record<string, string | undefined>;
type Window = { since: number; until: number };

/** One route of the table: its documentation, its answer's rows, and how it reads them. */
interface UsageRoute {
  path: string;
  schema: { operationId: string; summary: string; description: string; querystring: TSchema; response: TSchema };
  lookbackDays?: number;
  /** The buffer whose counts the route reads; the usage recorder's unless `operations`. */
  flush?: 'operations';
  rows: (query: Query, filter: ReturnType<typeof filterOf>) => Promise<unknown[]>;
  meta?: (window: Window) => unknown;
}

/** Per-client usage for admins, `/admin/v1/usage/…`: each route's schema says what it answers. */
export function registerUsageRoutes(
  app: FastifyInstance,
  { storage, clock, recorder, operations, api }: ServiceContext & Pick<LoopUsage, 'operations'>,
): void {
  const { usage, clients, apiKeys } = storage;
  // Each row's client, with its name (null without a registered client).
  const clientOf = async (rows: Array<{ clientId: string }>) => {
    const names = new Map((await clients.findMany(rows.map((r) => r.clientId))).map((c) => [c.id, c.name]));
    return (r: { clientId: string; version: string }) => ({
      clientId: r.clientId,
      clientName: names.get(r.clientId) ?? null,
      version: r.version,
    });
  };
  const routes: UsageRoute[] = [
    {
      path: '/usage/endpoints',
      schema: {
        operationId: 'usage.endpoints',
        summary: 'Usage per client, version, endpoint and key',
        querystring: WindowQuery,
        description:
          'Exact to the minute, with client and key names, first and last seen and the latest User-Agent: the evidence of who still calls what.',
        response: listOf(
          Type.Object({
            ...clientVersion,
            endpoint: text(400, 'Method and path template, for example `GET /users/{id}`.'),
            keyId: nullable(text(100)),
            keyName: nullable(text(100)),
            ...seen,
            userAgent: nullable(text(1000), 'User-Agent of the latest call.'),
          }),
          'Calls per client, version, endpoint and key',
        ),
      },
      rows: async (_query, filter) => {
        const rows = await usage.byClient(filter);
        const client = await clientOf(rows);
        const keys = new Map((await apiKeys.list()).map((k) => [k.id, k.name]));
        return rows.map((r) => ({
          ...client(r),
          endpoint: r.endpoint,
          keyId: r.keyId ?? null,
          keyName: r.keyId ? (keys.get(r.keyId) ?? null) : null,
          ...seenOf(r),
          userAgent: r.userAgent ?? null,
        }));
      },
    },
    {
      path: '/usage/clients',
      schema: {
        operationId: 'usage.clients',
        summary: 'Usage per client and version (whole UTC days)',
        querystring: WindowQuery,
        description: 'The cheap overview, from daily rollups: calls per client and version.',
        response: listOf(Type.Object({ ...clientVersion, ...seen }), 'Calls per client and version'),
      },
      rows: async (_query, filter) => {
        const rows = await usage.clientTotals(filter);
        const client = await clientOf(rows);
        return rows.map((r) => ({ ...client(r), ...seenOf(r) }));
      },
    },
    {
      path: '/usage/days',
      schema: {
        operationId: 'usage.days',
        summary: 'Calls and distinct clients per UTC day',
        description: 'A series for charts; with perClient=true, one row per client too.',
        querystring: Type.Composite(
          [
            WindowQuery,
            Type.Object({
              perClient: Type.Optional(
                Type.Union([Type.Literal('true'), Type.Literal('false')], {
                  description: 'One row per client and day.',
                }),
              ),
            }),
          ],
          { additionalProperties: false },
        ),
        response: listOf(
          Type.Object({
            day: Type.String({ format: 'date', maxLength: 10, description: 'UTC day.' }),
            version: text(20),
            clientId: Type.Optional(text(200, 'With perClient=true.')),
            calls: count('Calls that day.'),
            clients: count('Distinct clients that day.'),
          }),
          'Calls and distinct clients per UTC day',
        ),
      },
      rows: async (query, filter) =>
        (await usage.byDay({ ...filter, perClient: query.perClient === 'true' })).map((r) => ({
          day: formatIsoInstant(r.day).slice(0, 10),
          version: r.version,
          ...(r.clientId !== undefined ? { clientId: r.clientId } : {}),
          calls: r.calls,
          clients: r.clients,
        })),
    },
    // `GET /admin/v1/usage/operations`: what `versionary diff` asks to know who a change would break.
    {
      path: '/usage/operations',
      lookbackDays: operationLookbackDays,
      flush: 'operations',
      schema: {
        operationId: 'usage.operations',
        summary: 'Calls of every version per operation and client',
        querystring: windowQuery(filter, {
          version: 'Only this version (`v2`).',
          since: `ISO 8601 instant; ${operationLookbackDays} days ago by default. Read from the start of its UTC hour.`,
          until: 'ISO 8601 instant (exclusive: the hours that start before it); now by default.',
        }),
        description:
          'Hourly counts of every call to every version (deprecated or not), summed over the window: who calls which operation, and whether notices can reach them.',
        response: listOf(
          Type.Object({
            version: text(20),
            endpoint: text(
              400,
              'Method and path template without the prefix and version, for example `GET /users/{id}`.',
            ),
            clientId: text(200),
            clientName: clientName(),
            contact: Type.Boolean({
              description: 'Whether notices can reach the client: a subscribed email contact or a webhook.',
            }),
            calls: count('Calls in the window.'),
            lastSeen: instant('Latest call in the window.'),
          }),
          'Calls per version, operation and client, of every version',
          Type.Object({
            since: instant('Start of the window: the start of the UTC hour of `since`.'),
            until: instant('End of the window (exclusive).'),
            prefix: text(
              200,
              'The API prefix before `/<version>` in the served documents: `/api/v2/users/{id}` is version `v2`, endpoint `GET /users/{id}`.',
            ),
          }),
        ),
      },
      rows: async (_query, filter) => {
        const rows = await usage.operationUsage(filter);
        const found = new Map((await clients.findMany(rows.map((r) => r.clientId))).map((c) => [c.id, c]));
        return rows.map((r) => {
          const client = found.get(r.clientId);
          return {
            version: r.version,
            endpoint: r.endpoint,
            clientId: r.clientId,
            clientName: client?.name ?? null,
            contact: client ? reachable(client) : false,
            calls: r.calls,
            lastSeen: formatIsoInstant(r.lastSeen),
          };
        });
      },
      meta: (window) => ({
        since: formatIsoInstant(Math.floor(window.since / 3_600_000) * 3_600_000),
        until: formatIsoInstant(window.until),
        prefix: api.prefix,
      }),
    },
  ];
  // Each route reads its window, then flushes the buffered counts it reads before answering.
  for (const route of routes) {
    const { schema, lookbackDays = defaultLookbackDays } = route;
    const flush = async () => (route.flush === 'operations' ? operations?.flush() : recorder.flush());
    const metaOf =
      route.meta ??
      ((window: Window) => ({ since: formatIsoInstant(window.since), until: formatIsoInstant(window.until) }));
    app.get(
      route.path,
      {
        schema: adminRoute({
          ...schema,
          tags: ['usage'],
          response: { 200: schema.response, 400: 'An invalid query parameter, or since not before until' },
        }),
      },
      async (request) => {
        const query = request.query as Query;
        const window = readWindow(query, clock.now(), lookbackDays);
        await flush();
        return { data: await route.rows(query, filterOf(query, window)), meta: metaOf(window) };
      },
    );
  }
}

const seenOf = (r: { calls: number; firstSeen: number; lastSeen: number }) => ({
  calls: r.calls,
  firstSeen: formatIsoInstant(r.firstSeen),
  lastSeen: formatIsoInstant(r.lastSeen),
});

/** A usage query's window and its `version` and `client` filters, as the usage store reads them. */
const filterOf = (query: Query, window: Window) => ({
  ...window,
  ...(query.version ? { version: query.version } : {}),
  ...(query.client ? { clientId: query.client } : {}),
});

/** The `since` and `until` of a usage query, defaulted (`until` now, `since` `lookbackDays` before it); a 400 problem when one is not an instant or since is not before until. */
function readWindow(query: Query, now: number, lookbackDays: number): Window {
  const read = (name: 'since' | 'until', fallback: number) => {
    const raw = query[name];
    if (raw === undefined) return fallback;
    const value = parseIsoInstant(raw);
    if (value === undefined) {
      throw new VersionaryError({
        code: ErrorCode.ValidationFailed,
        detail: `${name} must be an ISO 8601 date or instant, such as 2026-01-31 or 2026-01-31T12:00:00Z.`,
        errors: [{ pointer: `/query/${name}`, detail: 'not an ISO 8601 date' }],
      });
    }
    return value;
  };
  const until = read('until', now);
  const since = read('since', until - lookbackDays * 86_400_000);
  if (since >= until) {
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: 'since must come before until.',
      errors: [{ pointer: '/query/since', detail: 'not before until' }],
    });
  }
  return { since, until };
}
