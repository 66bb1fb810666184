import type { Generated } from 'kysely';
import type { Brownout } from '../../core/notices/index.ts';
import type {
  ApiKeyRecord,
  ChangeApproval,
  Client,
  ClientContact,
  ClientWebhook,
  EndpointDeprecation,
  ExtendedAccessGrant,
  ExtendedAccessRequest,
  OutboxNotice,
  PostRecord,
  StoredSchedule,
  UsageCall,
  UserRecord,
} from '../../kernel/ports/index.ts';

/**
 * A record's columns as `rowMapping` keeps them by default: each field in the column of its name
 * in snake case, null where the field is optional. A table holding the port's record is declared
 * through it, so a field the port gains is a column here too.
 */
type Columns<R> = {
  [K in keyof R & string as SnakeCase<K>]-?: undefined extends R[K] ? Exclude<R[K], undefined> | null : R[K];
};
type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}`
  : S;

export type UsersTable = Columns<Omit<UserRecord, 'id'>> & { id: Generated<number> };

export type PostsTable = Columns<Omit<PostRecord, 'id'>> & { id: Generated<number> };

/** The `versionary_version_schedules` table: one deprecation per version. */
type VersionSchedulesTable = Columns<Omit<StoredSchedule, 'removed' | 'configFingerprint'>> & {
  removed: number;
  /** What the config file last applied to this row (`0016`); null when it never did. */
  config_fingerprint: string | null;
};

type UsageCallsTable = Columns<Pick<UsageCall, 'version' | 'endpoint' | 'clientId' | 'at'>> & { id: Generated<number> };

export type ApiKeysTable = Columns<Omit<ApiKeyRecord, 'roles' | 'hash'>> & { roles: string; key_hash: string };

interface IdempotencyKeysTable {
  client_id: string;
  key: string;
  fingerprint: string;
  state: string;
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: number;
}

export type ClientsTable = Columns<Omit<Client, 'contacts' | 'webhooks'>>;

/** A row of a client's contacts or webhooks: the client's id, and its place in the client's list. */
type ClientChild<R> = Columns<R> & { client_id: string; position: number };

/** The value columns every usage rollup table has. */
export interface RollupValues {
  calls: number;
  first_seen: number;
  last_seen: number;
  user_agent: string | null;
}

/** The key columns of the rollups per endpoint and key. `key_id` is '' for none. */
interface EndpointKeyColumns extends RollupValues {
  version: string;
  endpoint: string;
  client_id: string;
  key_id: string;
}

/** The columns of an operation count, per hour or per day. */
export interface OperationCountColumns {
  version: string;
  endpoint: string;
  client_id: string;
  calls: number;
  last_seen: number;
}

/**
 * The reference service's own tables (`users`, `posts`), migrated by a set of their own
 * (`reference-migrations.ts`): the loop and the gateway never create them.
 */
export interface ResourceTables {
  users: UsersTable;
  posts: PostsTable;
}

/**
 * The loop's tables, as Kysely sees them: every name starts with `versionary_`, so that they can
 * live in an app's own database or schema beside its tables.
 */
export interface Tables {
  versionary_version_schedules: VersionSchedulesTable;
  versionary_endpoint_deprecations: Columns<EndpointDeprecation>;
  versionary_usage_calls: UsageCallsTable;
  versionary_api_keys: ApiKeysTable;
  versionary_idempotency_keys: IdempotencyKeysTable;
  versionary_clients: ClientsTable;
  versionary_client_contacts: ClientChild<Omit<ClientContact, 'subscribed'>> & { subscribed: number };
  versionary_client_webhooks: ClientChild<ClientWebhook>;
  /** Calls per (minute, version, endpoint, client, key). */
  versionary_usage_minutes: EndpointKeyColumns & { minute: number };
  /** The same per UTC day. */
  versionary_usage_days: EndpointKeyColumns & { day: number };
  /** Calls per (UTC day, version, client), for charts. */
  versionary_usage_client_days: Omit<EndpointKeyColumns, 'endpoint' | 'key_id'> & { day: number };
  /** Every call ever, per (version, endpoint, client, key), for the summary. */
  versionary_usage_totals: EndpointKeyColumns;
  /** Every call that used a deprecated field or query parameter, per (element, version, endpoint, client). */
  versionary_usage_elements: Omit<EndpointKeyColumns, 'key_id'> & { element: string };
  /** Calls of every version per (UTC hour, version, endpoint, client). */
  versionary_usage_operation_hours: OperationCountColumns & { hour: number };
  /** The hourly operation counts summed per UTC day, kept beside them. */
  versionary_usage_operation_days: OperationCountColumns & { day: number };
  versionary_notice_outbox: NoticeOutboxTable;
  versionary_brownouts: BrownoutsTable;
  versionary_change_approvals: ChangeApprovalsTable;
  versionary_extended_access_grants: ExtendedAccessGrantsTable;
  versionary_usage_log_offsets: UsageLogOffsetsTable;
  versionary_extended_access_requests: ExtendedAccessRequestsTable;
}

/** The `versionary_notice_outbox` table: one row per notice, channel and recipient. */
export type NoticeOutboxTable = Columns<Omit<OutboxNotice, 'id'>> & {
  id: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
};

/** The `versionary_brownouts` table: planned windows of a version or endpoint answering as removed. */
export type BrownoutsTable = Columns<Omit<Brownout, 'clients'>> & {
  /** A targeted brownout's clients, a JSON list; null for every client. */
  target_clients: string | null;
  created_at: number;
};

/** The `versionary_change_approvals` table: approvals of breaking changes by fingerprint, revoked ones kept. */
type ChangeApprovalsTable = Columns<ChangeApproval>;

/** The columns that name what extended access is for, in its grants and its requests. */
export interface SubjectColumns {
  /** `version`, `endpoint` or `element`. */
  subject_kind: string;
  version: string;
  method: string | null;
  path: string | null;
  element: string | null;
}

/** The `versionary_extended_access_grants` table: per-client access past a sunset, revoked ones kept. */
type ExtendedAccessGrantsTable = Columns<Omit<ExtendedAccessGrant, 'subject' | 'until'>> &
  SubjectColumns & { until_at: number };

/** The `versionary_usage_log_offsets` table: where the control plane stands in each access log it reads, and who reads it. */
interface UsageLogOffsetsTable {
  path: string;
  device: string;
  inode: string;
  byte_offset: number;
  lease_owner: string | null;
  lease_until: number | null;
  updated_at: number;
}

/** The `versionary_extended_access_requests` table: consumers' requests for extended access, decided ones kept. */
type ExtendedAccessRequestsTable = Columns<Omit<ExtendedAccessRequest, 'subject'>> & SubjectColumns;
