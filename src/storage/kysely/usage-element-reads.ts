import { sql, type Kysely } from 'kysely';
import type { ClientElementUsageRow, ElementUsageRow } from '../../kernel/ports/index.ts';
import type { Tables } from './tables.ts';

type Count = number | string;

function clientFilter(clientId: string | undefined) {
  return clientId === undefined ? sql`` : sql` WHERE client_id = ${clientId}`;
}

/** Element usage per (version, element), of one client when asked: the management listing and dashboards. */
export async function readElementUsage(db: Kysely<Tables>, options: { clientId?: string }): Promise<ElementUsageRow[]> {
  const { rows } = await sql<{
    version: string;
    element: string;
    calls: Count;
    clients: Count;
    endpoints: Count;
    last_seen: Count;
  }>`SELECT version, element, SUM(calls) AS calls, COUNT(DISTINCT client_id) AS clients,
      COUNT(DISTINCT endpoint) AS endpoints, MAX(last_seen) AS last_seen
    FROM versionary_usage_elements${clientFilter(options.clientId)} GROUP BY version, element ORDER BY version, element`.execute(
    db,
  );
  // Both drivers may hand back bigint sums as strings.
  return rows.map((r) => ({
    version: r.version,
    element: r.element,
    calls: Number(r.calls),
    clients: Number(r.clients),
    endpoints: Number(r.endpoints),
    lastSeen: Number(r.last_seen),
  }));
}

/** Element calls per (client, element, version, endpoint): a client's own evidence, for its dashboard and notices. */
export async function readElementCalls(
  db: Kysely<Tables>,
  options: { clientId?: string },
): Promise<ClientElementUsageRow[]> {
  const { rows } = await sql<{
    client_id: string;
    element: string;
    version: string;
    endpoint: string;
    calls: Count;
    first_seen: Count;
    last_seen: Count;
  }>`SELECT client_id, element, version, endpoint, calls, first_seen, last_seen
    FROM versionary_usage_elements${clientFilter(options.clientId)} ORDER BY client_id, element, version, endpoint`.execute(
    db,
  );
  return rows.map((r) => ({
    clientId: r.client_id,
    element: r.element,
    version: r.version,
    endpoint: r.endpoint,
    calls: Number(r.calls),
    firstSeen: Number(r.first_seen),
    lastSeen: Number(r.last_seen),
  }));
}
