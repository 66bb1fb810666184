import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { replacementName, type DeprecationDates } from '../../../core/lifecycle/index.ts';
import { formatIsoInstant } from '../../../core/time/index.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';
import type { UsageStore } from '../../../kernel/ports/index.ts';
import { deprecationDates } from './admin-schemas.ts';
import { adminRoute, count, instant, nullable } from '../../host/admin-route-schemas.ts';

const deprecation = Type.Object(
  {
    kind: Type.Union(
      (['version', 'endpoint', 'field', 'parameter'] as const).map((k) => Type.Literal(k)),
      {
        description:
          'What is deprecated: a whole version, one endpoint of a version, a field of a schema, or a query parameter of an operation.',
      },
    ),
    name: Type.String({
      maxLength: 400,
      description: 'How it is shown and counted: `v1`, `GET /users/{id} in v2`, `User.nickname`, `GET /users?order`.',
    }),
    version: Type.String({ maxLength: 40, description: 'The version it belongs to.' }),
    deprecatedAt: instant('When it was deprecated.'),
    sunsetAt: instant('When it is (or was) removed.'),
    ...deprecationDates(instant, {
      extendedAccessUntil:
        'The cap on per-client extended access after the sunset (`POST /admin/v1/extended-access-grants`); absent when unset.',
      closedToNewClientsAt: 'From then on, clients that had not called it before get a 403; absent when unset.',
    }),
    replacement: nullable(
      Type.String({
        maxLength: 400,
        description:
          'What takes its place: a version, or the field or parameter (`User.displayName`); null when none is named.',
      }),
    ),
    migrationUrl: nullable(Type.String({ maxLength: 2000, description: 'The migration guide, when there is one.' })),
    usage: Type.Object(
      {
        calls: count('Calls recorded that used it (for a version: calls to it while deprecated).'),
        clients: count('Distinct clients among them.'),
        endpoints: count('Distinct endpoints among them.'),
        lastCall: nullable(instant('The latest of them; null when none was recorded.')),
      },
      { description: 'Every call recorded that used it, from the usage rollups.' },
    ),
  },
  { description: 'One deprecated version, endpoint, field or query parameter, with its usage' },
);

const listDeprecationsSchema = adminRoute({
  operationId: 'deprecations.list',
  summary: 'List everything deprecated, with its usage',
  tags: ['deprecations'],
  description:
    'Every deprecated version, endpoint, field and query parameter, with its dates, its replacement and the calls recorded that used it: who still depends on what, before its sunset.',
  response: {
    200: Type.Object(
      { data: Type.Array(deprecation, { maxItems: 10_000 }) },
      { description: 'Versions (oldest first), then endpoints, then fields and parameters as configured' },
    ),
  },
});

/**
 * A deprecation's dates as the management API shows them: ISO 8601 instants, the two optional
 * ones only when set. The deprecation list and a created endpoint deprecation say them alike.
 */
export function isoDeprecationDates(d: DeprecationDates & { deprecatedAt: number; sunsetAt: number }) {
  return {
    deprecatedAt: formatIsoInstant(d.deprecatedAt),
    sunsetAt: formatIsoInstant(d.sunsetAt),
    ...(d.extendedAccessUntil === undefined ? {} : { extendedAccessUntil: formatIsoInstant(d.extendedAccessUntil) }),
    ...(d.closedToNewClientsAt === undefined ? {} : { closedToNewClientsAt: formatIsoInstant(d.closedToNewClientsAt) }),
  };
}

/** One deprecation with its usage: an entry of `GET /admin/v1/deprecations` and of the MCP `deprecations` tool. */
export type DeprecationEntry = Static<typeof deprecation>;

interface Counted {
  calls: number;
  clients: number;
  endpoints: number;
  lastSeen: number | null;
}

const none: Counted = { calls: 0, clients: 0, endpoints: 0, lastSeen: null };

const counted = (rows: ReadonlyArray<{ calls: number; clientId: string; lastSeen: number }>, endpoints: number) =>
  rows.length === 0
    ? none
    : {
        calls: rows.reduce((n, r) => n + r.calls, 0),
        clients: new Set(rows.map((r) => r.clientId)).size,
        endpoints,
        lastSeen: Math.max(...rows.map((r) => r.lastSeen)),
      };

/**
 * Everything deprecated, with its usage: versions and endpoints from the lifecycle and the
 * version rollups, fields and parameters from the config and their own rollup. Reads a few rows
 * per deprecation, whatever the volume of calls. With `clientId`, counted over that client's own
 * calls, and only what it has called (the deprecations that affect it) unless `all`.
 */
export async function listDeprecations(options: {
  runtime: LifecycleRuntime;
  usage: UsageStore;
  clientId?: string;
  all?: boolean;
}): Promise<DeprecationEntry[]> {
  const { runtime, usage, clientId, all } = options;
  const mine = clientId === undefined ? {} : { clientId };
  const entries: Array<{ entry: Omit<DeprecationEntry, 'usage'>; used: Counted }> = [];
  const documented = new Map(runtime.document().versions.map((v) => [v.name, v]));
  for (const v of runtime.versions()) {
    if (!v.schedule) continue;
    const totals = await usage.clientTotals({ since: 0, version: v.name, ...mine });
    const summary = clientId === undefined ? await usage.summary(v.name) : undefined;
    const calls = counted(totals, 0);
    const endpoints =
      summary?.endpoints ??
      new Set((await usage.byClient({ since: 0, version: v.name, ...mine })).map((r) => r.endpoint)).size;
    const used = summary ? { ...summary, lastSeen: calls.lastSeen } : { ...calls, endpoints };
    const replacement = documented.get(v.name)?.replacement ?? null;
    const migrationUrl = runtime.migrationUrl(v.name);
    const base = { kind: 'version' as const, name: v.name, version: v.name, replacement, migrationUrl };
    entries.push({ entry: { ...base, ...isoDeprecationDates(v.schedule) }, used });
  }
  for (const e of runtime.endpointDeprecations()) {
    const endpoint = `${e.method} ${e.path}`;
    // Over all time the per-client read is the totals rollup: a few rows per client of the version.
    const rows = (await usage.byClient({ since: 0, version: e.version, ...mine })).filter(
      (r) => r.endpoint === endpoint,
    );
    const migrationUrl = e.migrationUrl ?? runtime.migrationUrl(e.version);
    const name = `${endpoint} in ${e.version}`;
    const base = { kind: 'endpoint' as const, name, version: e.version, replacement: null, migrationUrl };
    entries.push({ entry: { ...base, ...isoDeprecationDates(e) }, used: counted(rows, 1) });
  }
  const elements = runtime.elements();
  const used = elements.length === 0 ? [] : await usage.elementUsage(mine);
  for (const e of elements) {
    const row = used.find((u) => u.version === e.version && u.element === e.element);
    const replacement = replacementName(e) ?? null;
    const migrationUrl = e.migrationUrl ?? null;
    const base = { kind: e.kind, name: e.element, version: e.version, replacement, migrationUrl };
    entries.push({ entry: { ...base, ...isoDeprecationDates(e) }, used: row ?? none });
  }
  return entries
    .filter(({ used }) => clientId === undefined || all === true || used.calls > 0)
    .map(({ entry, used }) => ({
      ...entry,
      usage: {
        calls: used.calls,
        clients: used.clients,
        endpoints: used.endpoints,
        lastCall: used.lastSeen === null ? null : formatIsoInstant(used.lastSeen),
      },
    }));
}

/** `GET /admin/v1/deprecations`: see {@link listDeprecations}. */
export function registerDeprecationListRoute(
  app: FastifyInstance,
  { runtime, storage, recorder }: LifecycleContext,
): void {
  app.get('/deprecations', { schema: listDeprecationsSchema }, async () => {
    // Buffered calls first, so the counts include every call made so far.
    await recorder.flush();
    return { data: await listDeprecations({ runtime, usage: storage.usage }) };
  });
}
