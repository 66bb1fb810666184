import type { ExtendedAccessSubject } from './extended-access.ts';

/** Where a consumer's request for extended access stands. */
type ExtendedAccessRequestStatus = 'pending' | 'granted' | 'declined';

/**
 * A consumer's request for extended access to a subject past its sunset, asked from the portal
 * and decided by the owner. A granted one names the grant it became; none is ever deleted.
 */
export interface ExtendedAccessRequest {
  id: string;
  clientId: string;
  subject: ExtendedAccessSubject;
  reason: string;
  /** The date the consumer wished for, epoch milliseconds; the owner picks when absent. */
  requestedUntil: number | null;
  status: ExtendedAccessRequestStatus;
  createdAt: number;
  decidedAt: number | null;
  decidedBy: string | null;
  /** The owner's words: the decline's reason, or the grant's note. */
  decisionNote: string | null;
  grantId: string | null;
}

export interface ExtendedAccessRequestStore {
  insert(request: ExtendedAccessRequest): Promise<void>;
  find(id: string): Promise<ExtendedAccessRequest | undefined>;
  /** Oldest first; of one client or one status when asked. */
  list(options?: { clientId?: string; status?: ExtendedAccessRequestStatus }): Promise<ExtendedAccessRequest[]>;
  /** Decide a pending request; false when it was already decided (or does not exist). */
  decide(decision: {
    id: string;
    status: 'granted' | 'declined';
    at: number;
    by: string;
    note: string | null;
    grantId: string | null;
  }): Promise<boolean>;
}

/**
 * An owner's decision on a request, as the notices part tells the client: the request as decided,
 * and for a grant the client's date and the subject's cap (epoch milliseconds).
 */
export interface ExtendedAccessDecision {
  request: ExtendedAccessRequest;
  until: number | null;
  cap: number | null;
}

/** Queues the client's notice of a decision (the notices part's); never waits on its delivery. */
export type ExtendedAccessDecisionNotifier = (decision: ExtendedAccessDecision) => Promise<void>;
