/** User lifecycle status in storage (the newest enum). */
export type UserStatus = 'active' | 'inactive' | 'pending';

/** A stored user. */
export interface UserRecord {
  id: number;
  name: string;
  email: string | null;
  nickname: string | null;
  status: UserStatus;
  revision: number;
  createdAt: string;
  updatedAt: string;
  /** The client whose key created it; null when created without a client (single-tenant use). */
  clientId: string | null;
}

/**
 * A user as a list reads it: only what a list item shows, not the row's bookkeeping (revision,
 * timestamps, owner). Asked for some columns, a page reads those and the id alone; the others are
 * absent.
 */
export type UserListRecord = Pick<UserRecord, 'id'> & Partial<Pick<UserRecord, UserListColumn>>;

/** The columns a page of users can be asked to read, besides the id it always reads. */
export type UserListColumn = 'name' | 'email' | 'nickname' | 'status';

/** The writable fields of a user: those a list item shows. */
export type UserValues = Pick<UserRecord, UserListColumn>;

/** One page of a keyset-paginated list. */
export interface Page<T> {
  items: T[];
  /** Id after which the next page starts; null on the last page. */
  nextAfter: number | null;
}

/** Options for listing a page. */
export interface PageOptions {
  limit: number;
  /** Return items with an id greater than this (0 for the first page). */
  afterId: number;
}

/**
 * Whose resources an operation may see: a client id, `null` for the resources created without a
 * client. Omitted (undefined) means every resource, for admins.
 */
export type Owner = string | null;

/** The outcome of a conditional write. */
type WriteOutcome<T> = { kind: 'ok'; value: T } | { kind: 'missing' } | { kind: 'stale' };

/**
 * The service's port for users. Writes are conditional on the revision the caller read, so
 * concurrent writers never lose each other's changes.
 */
export interface UserStore {
  /** With `owner`, only that owner's users; with `columns`, only those (and the id) are read: a sparse fieldset's page. */
  list(options: PageOptions & { owner?: Owner; columns?: readonly UserListColumn[] }): Promise<Page<UserListRecord>>;
  get(id: number): Promise<UserRecord | undefined>;
  create(options: { values: UserValues; at: string; clientId?: Owner }): Promise<UserRecord>;
  /** With `owner`, another owner's user is `missing`. */
  update(options: {
    id: number;
    values: UserValues;
    expectedRevision: number;
    at: string;
    owner?: Owner;
  }): Promise<WriteOutcome<UserRecord>>;
  delete(options: { id: number; expectedRevision?: number; owner?: Owner }): Promise<WriteOutcome<null>>;
  count(): Promise<number>;
}
