import type { FastifyRequest } from 'fastify';
import type { VersionaryError } from '../../core/errors/index.ts';

/**
 * What the steps of one request tell each other, in one object per request (Fastify's
 * `versionaryState` request decorator). A feature adds its own members by declaration merging:
 *
 * ```ts
 * declare module './request-state.ts' { interface RequestState { principal?: Principal } }
 * ```
 */
export interface RequestState {
  /** Credentials that failed, kept for the `authorize` step (a rate limit counts them first). */
  authFailure?: VersionaryError;
  /** The per-address limit has counted this request already. */
  counted?: boolean;
}

type WithState = FastifyRequest & { versionaryState?: RequestState | null };

/** The request's state, made on first use. */
export function stateOf(request: FastifyRequest): RequestState {
  return ((request as WithState).versionaryState ??= {});
}
