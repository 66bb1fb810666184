import type { FastifyRequest } from 'fastify';
import { ErrorCode, type VersionaryError } from '../core/errors/index.ts';
import { stateOf } from './pipeline/request-state.ts';

declare module './pipeline/request-state.ts' {
  interface RequestState {
    /** The rule that answered instead of the handler, for metrics (`versionary_refused_calls_total`). */
    decision?: 'removed' | 'brownout' | 'closed_to_new_clients' | 'rate_limited';
  }
}

/**
 * Note the rule behind a problem on its request. Read from the problem itself, in the one writer
 * of problems, so that every place that refuses (the removed gate, the lifecycle step, a brownout,
 * a closing to new clients, a rate limit) is covered with no flag to remember to set.
 */
export function noteDecision(request: FastifyRequest, error: VersionaryError): void {
  const state = stateOf(request);
  // A brownout answers as the removal will: its extension tells it apart.
  if (error.extensions.brownout !== undefined) state.decision = 'brownout';
  else if (error.code === ErrorCode.ClosedToNewClients) state.decision = 'closed_to_new_clients';
  else if (error.code === ErrorCode.RateLimited) state.decision = 'rate_limited';
  else if (error.code === ErrorCode.VersionRemoved || error.code === ErrorCode.ElementRemoved)
    state.decision = 'removed';
  // A removal answered as 404 (`removedStatus: 404`): the lifecycle said it refused.
  else if (error.code === ErrorCode.NotFound && state.refused === true) state.decision = 'removed';
}
