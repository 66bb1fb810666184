/**
 * What an exemption covers: a whole version, one endpoint of it, or one deprecated element (a
 * field or query parameter, named as the deprecations list names it: `User.nickname`,
 * `GET /users/{id}?fields`).
 */
export type ExemptionSubject =
  | { kind: 'version'; version: string }
  | { kind: 'endpoint'; version: string; method: string; path: string }
  | { kind: 'element'; version: string; element: string };

/**
 * One client's extended access to a subject past its sunset, until `until` (never after the
 * subject's `extendedAccessUntil` cap). Revoking keeps the record for the audit trail.
 */
export interface ClientExemption {
  id: string;
  clientId: string;
  subject: ExemptionSubject;
  /** The client's own sunset, epoch milliseconds. */
  until: number;
  reason: string;
  /** Who granted it: the credential's key name and id, a token's subject, or `admin`. */
  grantedBy: string;
  grantedAt: number;
  revokedAt: number | null;
  revokedBy: string | null;
}

/** The service's port for per-client exemptions. */
export interface ExemptionStore {
  /**
   * Store a grant, unless the client already has one in force (not revoked) for the same subject:
   * then nothing is stored and that one is answered. One per client and subject, enforced by a
   * unique index, so two instances granting at once cannot both win.
   */
  insert(exemption: ClientExemption): Promise<ClientExemption | undefined>;
  find(id: string): Promise<ClientExemption | undefined>;
  /** Oldest first; of one client when asked. Without `includeRevoked`, only the ones not revoked. */
  list(options?: { clientId?: string; includeRevoked?: boolean }): Promise<ClientExemption[]>;
  /** True when the exemption was active (not revoked) and is now revoked. */
  revoke(options: { id: string; at: number; by: string }): Promise<boolean>;
}
