import type { Revoke } from './approvals.ts';

/**
 * What a grant covers: a whole version, one endpoint of it, or one deprecated element (a
 * field or query parameter, named as the deprecations list names it: `User.nickname`,
 * `GET /users/{id}?fields`).
 */
export type ExtendedAccessSubject =
  | { kind: 'version'; version: string }
  | { kind: 'endpoint'; version: string; method: string; path: string }
  | { kind: 'element'; version: string; element: string };

/**
 * One client's extended access to a subject past its sunset, until `until` (never after the
 * subject's `extendedAccessUntil` cap). Revoking keeps the record for the audit trail.
 */
export interface ExtendedAccessGrant {
  id: string;
  clientId: string;
  subject: ExtendedAccessSubject;
  /** The client's own sunset, epoch milliseconds. */
  until: number;
  reason: string;
  /** Who granted it: the credential's key name and id, a token's subject, or `admin`. */
  grantedBy: string;
  grantedAt: number;
  revokedAt: number | null;
  revokedBy: string | null;
}

export interface ExtendedAccessStore {
  /**
   * Store a grant, unless the client already has one in force (not revoked) for the same subject:
   * then nothing is stored and that one is answered. One per client and subject, enforced by a
   * unique index, so two instances granting at once cannot both win.
   */
  insert(grant: ExtendedAccessGrant): Promise<ExtendedAccessGrant | undefined>;
  find(id: string): Promise<ExtendedAccessGrant | undefined>;
  /** Oldest first; of one client when asked. Without `includeRevoked`, only the ones not revoked. */
  list(options?: { clientId?: string; includeRevoked?: boolean }): Promise<ExtendedAccessGrant[]>;
  revoke: Revoke;
}
