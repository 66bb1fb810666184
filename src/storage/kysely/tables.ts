import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string | null;
  nickname: string | null;
  status: string;
  revision: number;
  created_at: string;
  updated_at: string;
  client_id: string | null;
}

export interface PostsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  body: string;
  created_at: string;
  client_id: string | null;
}

/** The `versionary_version_schedules` table: one deprecation per version. */
interface VersionSchedulesTable extends DeprecationColumns {
  removed: number;
  reason: string;
  /** What the config file last applied to this row (`0016`); null when it never did. */
  config_fingerprint: string | null;
}

interface EndpointDeprecationsTable extends DeprecationColumns {
  method: string;
  path: string;
}

interface DeprecationColumns {
  version: string;
  deprecated_at: number;
  sunset_at: number;
  migration_url: string | null;
  extended_access_until: number | null;
  closed_to_new_clients_at: number | null;
}

interface UsageCallsTable {
  id: Generated<number>;
  version: string;
  endpoint: string;
  client_id: string;
  at: number;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  roles: string;
  contact: string | null;
  key_hash: string;
  created_at: number;
  revoked_at: number | null;
  client_id: string | null;
}

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

export interface ClientsTable {
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
  /** The oldest version the client may call; null when it has none (migration 0018). */
  minimum_version: string | null;
}

interface ClientContactsTable {
  client_id: string;
  email: string;
  subscribed: number;
  position: number;
}

interface ClientWebhooksTable {
  id: string;
  client_id: string;
  url: string;
  secret: string;
  position: number;
}

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

/** `versionary_usage_client_days`: calls per (UTC day, version, client), for charts. */
interface UsageClientDaysTable extends RollupValues {
  day: number;
  version: string;
  client_id: string;
}

/** `versionary_usage_elements`: every call that used a deprecated field or query parameter, per (element, version, endpoint, client). */
interface UsageElementsTable extends RollupValues {
  element: string;
  version: string;
  endpoint: string;
  client_id: string;
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
  versionary_endpoint_deprecations: EndpointDeprecationsTable;
  versionary_usage_calls: UsageCallsTable;
  versionary_api_keys: ApiKeysTable;
  versionary_idempotency_keys: IdempotencyKeysTable;
  versionary_clients: ClientsTable;
  versionary_client_contacts: ClientContactsTable;
  versionary_client_webhooks: ClientWebhooksTable;
  /** Calls per (minute, version, endpoint, client, key). */
  versionary_usage_minutes: EndpointKeyColumns & { minute: number };
  /** The same per UTC day. */
  versionary_usage_days: EndpointKeyColumns & { day: number };
  versionary_usage_client_days: UsageClientDaysTable;
  /** Every call ever, per (version, endpoint, client, key), for the summary. */
  versionary_usage_totals: EndpointKeyColumns;
  versionary_usage_elements: UsageElementsTable;
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
export interface NoticeOutboxTable {
  id: Generated<number>;
  client_id: string;
  subject: string;
  kind: string;
  step: string;
  sunset_at: number;
  channel: string;
  recipient: string;
  payload: string;
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

/** The `versionary_brownouts` table: planned windows of a version or endpoint answering as removed. */
export interface BrownoutsTable {
  id: string;
  version: string;
  endpoint: string | null;
  starts_at: number;
  ends_at: number;
  client_id: string | null;
  /** A targeted brownout's clients, a JSON list; null for every client. */
  target_clients: string | null;
  called_within_days: number | null;
  created_at: number;
}

/** The `versionary_change_approvals` table: approvals of breaking changes by fingerprint, revoked ones kept. */
interface ChangeApprovalsTable {
  id: string;
  fingerprint: string;
  reason: string;
  approved_by: string;
  approved_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  revoked_by: string | null;
}

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
interface ExtendedAccessGrantsTable extends SubjectColumns {
  id: string;
  client_id: string;
  until_at: number;
  reason: string;
  granted_by: string;
  granted_at: number;
  revoked_at: number | null;
  revoked_by: string | null;
}

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
interface ExtendedAccessRequestsTable extends SubjectColumns {
  id: string;
  client_id: string;
  reason: string;
  requested_until: number | null;
  /** `pending`, `granted` or `declined`. */
  status: string;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
  decision_note: string | null;
  grant_id: string | null;
}
