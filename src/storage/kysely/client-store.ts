import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Client, ClientStore } from '../../kernel/ports/index.ts';
import { asIs, numeric, optional, rowMapping } from './mapping.ts';
import type { ClientsTable, Tables } from './tables.ts';

/**
 * Clients over Kysely: a row per client, its contacts and webhooks in tables of their own, so
 * that unsubscribing one contact is a one-row UPDATE. Pages are in creation order, keyed by
 * (created_at, id).
 */
export function createClientStore(db: Kysely<Tables>): ClientStore {
  const load = async (rows: Selectable<ClientsTable>[]): Promise<Client[]> => {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const childrenOf = <T extends ChildTable>(table: T) =>
      db
        .selectFrom(table as ChildTable)
        .selectAll()
        .where('client_id', 'in', ids)
        .orderBy('position')
        .execute() as Promise<Selectable<Tables[T]>[]>;
    const contacts = await childrenOf('versionary_client_contacts');
    const webhooks = await childrenOf('versionary_client_webhooks');
    return rows.map((r) => ({
      ...clients.fromRow(r),
      contacts: contacts
        .filter((c) => c.client_id === r.id)
        .map((c) => ({ email: c.email, subscribed: Number(c.subscribed) === 1 })),
      webhooks: webhooks.filter((w) => w.client_id === r.id).map((w) => ({ id: w.id, url: w.url, secret: w.secret })),
    }));
  };
  const byIds = (ids: string[]) => db.selectFrom('versionary_clients').selectAll().where('id', 'in', ids).execute();
  return {
    async insert(client) {
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('versionary_clients')
          .values(clients.toRow(client) as Insertable<ClientsTable>)
          .execute();
        await writeChildren(tx, client);
      });
    },
    async find(id) {
      const [client] = await load(await byIds([id]));
      return client;
    },
    async findMany(ids) {
      if (ids.length === 0) return [];
      const unique = [...new Set(ids)];
      const found: Client[] = [];
      // Bounded IN lists: a usage report can name thousands of clients.
      for (let i = 0; i < unique.length; i += 500) found.push(...(await load(await byIds(unique.slice(i, i + 500)))));
      return found;
    },
    async list({ limit, after }) {
      let query = db.selectFrom('versionary_clients').selectAll();
      const position = after === undefined ? undefined : decodePosition(after);
      if (position) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '>', position.createdAt),
            eb.and([eb('created_at', '=', position.createdAt), eb('id', '>', position.id)]),
          ]),
        );
      }
      const rows = await query
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit + 1)
        .execute();
      const items = await load(rows.slice(0, limit));
      const last = items[items.length - 1];
      return { items, nextAfter: rows.length > limit && last ? `${last.createdAt}:${last.id}` : null };
    },
    async minimumVersions() {
      const rows = await db
        .selectFrom('versionary_clients')
        .select(['id', 'minimum_version'])
        .where('minimum_version', 'is not', null)
        .execute();
      return Object.fromEntries(rows.map((r) => [r.id, r.minimum_version!]));
    },
    async update(client) {
      const { name, updatedAt, minimumVersion } = client;
      return db.transaction().execute(async (tx) => {
        const result = await tx
          .updateTable('versionary_clients')
          .set(clients.columnsOf({ name, updatedAt, minimumVersion }))
          .where('id', '=', client.id)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await deleteChildren(tx, client.id);
        await writeChildren(tx, client);
        return true;
      });
    },
    async delete(id) {
      return db.transaction().execute(async (tx) => {
        // Children first: SQLite enforces the cascade only with foreign keys on, which a caller may not have.
        await deleteChildren(tx, id);
        const result = await tx.deleteFrom('versionary_clients').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },
    async setContactSubscribed(clientId, email, subscribed) {
      const result = await db
        .updateTable('versionary_client_contacts')
        .set({ subscribed: subscribed ? 1 : 0 })
        .where('client_id', '=', clientId)
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

const clients = rowMapping<Omit<Client, 'contacts' | 'webhooks'>>({
  id: asIs,
  name: asIs,
  createdAt: numeric,
  updatedAt: numeric,
  minimumVersion: optional(asIs),
});

/** The tables of a client's contacts and webhooks, in a row each, with the client's id and their position. */
const childTables = ['versionary_client_contacts', 'versionary_client_webhooks'] as const;
type ChildTable = (typeof childTables)[number];

async function writeChildren(tx: Transaction<Tables>, client: Client): Promise<void> {
  const { id, contacts, webhooks } = client;
  if (contacts.length > 0)
    await tx
      .insertInto('versionary_client_contacts')
      .values(
        contacts.map((c, position) => ({
          client_id: id,
          email: c.email.toLowerCase(),
          subscribed: c.subscribed ? 1 : 0,
          position,
        })),
      )
      .execute();
  if (webhooks.length > 0)
    await tx
      .insertInto('versionary_client_webhooks')
      .values(webhooks.map((w, position) => ({ id: w.id, client_id: id, url: w.url, secret: w.secret, position })))
      .execute();
}

async function deleteChildren(tx: Transaction<Tables>, clientId: string): Promise<void> {
  for (const table of childTables) await tx.deleteFrom(table).where('client_id', '=', clientId).execute();
}

function decodePosition(after: string): { createdAt: number; id: string } | undefined {
  const match = /^([0-9]{1,15}):(.{1,100})$/.exec(after);
  return match ? { createdAt: Number(match[1]), id: match[2]! } : undefined;
}
