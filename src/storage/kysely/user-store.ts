import type { Kysely, Selectable, SelectQueryBuilder, UpdateQueryBuilder, DeleteQueryBuilder } from 'kysely';
import type {
  Owner,
  UserListColumn,
  UserListRecord,
  UserRecord,
  UserStatus,
  UserStore,
} from '../../kernel/ports/index.ts';
import { precompile } from './precompile.ts';
import type { ResourceTables, UsersTable } from './tables.ts';

/**
 * The users port over Kysely: the same SQL for SQLite and PostgreSQL. Conditional writes compare
 * the revision inside the UPDATE, so the check and the write are one atomic statement.
 */
export function createUserStore(db: Kysely<ResourceTables>): UserStore {
  const byId = precompile(db, db.selectFrom('users').selectAll().where('id', '=', 0), { singleRow: true });
  // A page is read on every list call: each shape (all, unowned, one owner's) and set of columns
  // compiled once, on first use. Placeholders in order: after id, [owner,] limit. Only a list
  // item's columns, or fewer for a sparse fieldset: on SQLite each column read costs (20 rows,
  // libsql: 68 µs for all nine, 46 µs for the five of a list item, 32 µs for two). At most 3 × 16
  // statements: the columns are a subset of four, kept in one order.
  const pages = new Map<string, (parameters: readonly unknown[]) => Promise<ListRow[]>>();
  const pageOf = (owner: Owner | undefined, columns: readonly ListColumn[]) => {
    const shape = owner === undefined ? 'all' : owner === null ? 'unowned' : 'owned';
    const key = columns === listColumns ? shape : `${shape} ${columns.join(',')}`;
    let page = pages.get(key);
    if (!page) {
      // The owner is a placeholder: any string compiles the one-owner shape.
      page = precompile(
        db,
        ownedBy(db.selectFrom('users').select(columns).where('id', '>', 0), shape === 'owned' ? '' : owner)
          .orderBy('id')
          .limit(1),
      );
      pages.set(key, page);
    }
    return page;
  };
  // A conditional write that changed nothing: the user is there at another revision, or is not there (for this owner).
  const staleOrMissing = async (id: number, owner: Owner | undefined) => {
    const exists = await ownedBy(db.selectFrom('users').select('id').where('id', '=', id), owner).executeTakeFirst();
    return exists ? ({ kind: 'stale' } as const) : ({ kind: 'missing' } as const);
  };
  return {
    async list({ limit, afterId, owner, columns }) {
      const chosen = columns ? listColumns.filter((c) => c === 'id' || columns.includes(c)) : listColumns;
      const rows = await pageOf(
        owner,
        chosen,
      )(typeof owner === 'string' ? [afterId, owner, limit + 1] : [afterId, limit + 1]);
      const items = rows.slice(0, limit).map(toListUser);
      return { items, nextAfter: rows.length > limit ? items[items.length - 1]!.id : null };
    },
    async get(id) {
      const [row] = await byId([id]);
      return row && toUser(row);
    },
    async create({ values, at, clientId }) {
      const row = await db
        .insertInto('users')
        .values({ ...values, revision: 1, created_at: at, updated_at: at, client_id: clientId ?? null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    },
    async update({ id, values, expectedRevision, at, owner }) {
      const row = await ownedBy(
        db
          .updateTable('users')
          .set({ ...values, revision: expectedRevision + 1, updated_at: at })
          .where('id', '=', id)
          .where('revision', '=', expectedRevision),
        owner,
      )
        .returningAll()
        .executeTakeFirst();
      return row ? { kind: 'ok', value: toUser(row) } : staleOrMissing(id, owner);
    },
    async delete({ id, expectedRevision, owner }) {
      let query = ownedBy(db.deleteFrom('users').where('id', '=', id), owner);
      if (expectedRevision !== undefined) query = query.where('revision', '=', expectedRevision);
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows) > 0 ? { kind: 'ok', value: null } : staleOrMissing(id, owner);
    },
    async count() {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

type ListColumn = 'id' | UserListColumn;
const listColumns: readonly ListColumn[] = ['id', 'name', 'email', 'nickname', 'status'];
type ListRow = Pick<Selectable<UsersTable>, 'id'> & Partial<Pick<Selectable<UsersTable>, UserListColumn>>;

/** A page's row as a list record: the columns it was asked for and the id; what it lacks stays absent. */
function toListUser(row: ListRow): UserListRecord {
  const user: Record<string, unknown> = { ...row };
  user.id = Number(row.id);
  return user as UserListRecord;
}

function toUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    nickname: row.nickname,
    status: row.status as UserStatus,
    revision: Number(row.revision),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    clientId: row.client_id ?? null,
  };
}

type Filterable<Q> = Q extends
  | SelectQueryBuilder<ResourceTables, 'users', infer _O>
  | UpdateQueryBuilder<ResourceTables, 'users', 'users', infer _U>
  | DeleteQueryBuilder<ResourceTables, 'users', infer _D>
  ? Q
  : never;

/** Narrow a users query to one owner's rows; undefined leaves it unfiltered (admins). */
function ownedBy<Q>(query: Filterable<Q>, owner: Owner | undefined): Q {
  if (owner === undefined) return query;
  const q = query as unknown as SelectQueryBuilder<ResourceTables, 'users', object>;
  return (owner === null ? q.where('client_id', 'is', null) : q.where('client_id', '=', owner)) as unknown as Q;
}
