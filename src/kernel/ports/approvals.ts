/** One approval of a breaking change, by fingerprint; revoking keeps the record for the audit trail. */
export interface ChangeApproval {
  id: string;
  /** The change's fingerprint (`fingerprintOf`, 16 hex digits). */
  fingerprint: string;
  reason: string;
  /** Who approved: an API key's name and id, a token's subject, or `admin` for the environment's key. */
  approvedBy: string;
  approvedAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  revokedBy: string | null;
}

export interface ApprovalStore {
  insert(approval: ChangeApproval): Promise<void>;
  find(id: string): Promise<ChangeApproval | undefined>;
  /** Oldest first. Without `includeRevoked`, only approvals neither revoked nor expired at `now`. */
  list(options: { now: number; includeRevoked?: boolean }): Promise<ChangeApproval[]>;
  revoke: Revoke;
}

/** Revoke a record of an audit trail (approvals, grants): true when it was active (not revoked) and is now revoked. */
export type Revoke = (options: { id: string; at: number; by: string }) => Promise<boolean>;
