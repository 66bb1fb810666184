import type { ExemptionSubject } from './extended-access.ts';

/** Where a consumer's request for extended access stands. */
export type ExemptionRequestStatus = 'pending' | 'granted' | 'declined';

/**
 * A consumer's request for extended access to a subject past its sunset, asked from the portal
 * and decided by the owner. A granted one names the exemption it became; none is ever deleted.
 */
export interface ExemptionRequest {
  id: string;
  clientId: string;
  subject: ExemptionSubject;
  reason: string;
  /** The date the consumer wished for, epoch milliseconds; the owner picks when absent. */
  requestedUntil: number | null;
  status: ExemptionRequestStatus;
  createdAt: number;
  decidedAt: number | null;
  decidedBy: string | null;
  /** The owner's words: the decline's reason, or the grant's note. */
  decisionNote: string | null;
  exemptionId: string | null;
}

/** The service's port for exemption requests. */
export interface ExemptionRequestStore {
  insert(request: ExemptionRequest): Promise<void>;
  find(id: string): Promise<ExemptionRequest | undefined>;
  /** Oldest first; of one client or one status when asked. */
  list(options?: { clientId?: string; status?: ExemptionRequestStatus }): Promise<ExemptionRequest[]>;
  /** Decide a pending request; false when it was already decided (or does not exist). */
  decide(decision: {
    id: string;
    status: 'granted' | 'declined';
    at: number;
    by: string;
    note: string | null;
    exemptionId: string | null;
  }): Promise<boolean>;
}

/**
 * An owner's decision on a request, as the notices part tells the client: the request as decided,
 * and for a grant the client's date and the subject's cap (epoch milliseconds).
 */
export interface ExemptionDecision {
  request: ExemptionRequest;
  until: number | null;
  cap: number | null;
}

/** Queues the client's notice of a decision (the notices part's); never waits on its delivery. */
export type ExemptionDecisionNotifier = (decision: ExemptionDecision) => Promise<void>;
