import type { FastifyRequest } from 'fastify';
import type { AppIdentity, Role } from '../../kernel/ports/principal.ts';

/**
 * Options of the access part.
 *
 * @example
 * ```ts
 * const options: LoopAccessOptions = { identify: (request) => (request.headers['x-team'] ? { clientId: 'team', roles: ['read'] } : undefined) };
 * ```
 */
export interface LoopAccessOptions {
  /** Told the first admin key, once, when the first start creates it (no `VERSIONARY_ADMIN_KEY`). */
  onBootstrapKey?: (key: string) => void;
  /**
   * Your own authentication, asked first on every request: return the client the call comes from
   * and its roles (`read`, `write`, `admin`), or `undefined` to fall back to Versionary's API keys
   * and JWTs. Usage, notices, rate limits and the management API's roles follow the identity.
   */
  identify?: (request: FastifyRequest) => AppIdentity | undefined | Promise<AppIdentity | undefined>;
  /** The roles a JWT's `scope` may grant (all three by default); the gateway's tokens never grant `admin`. */
  jwtRoles?: readonly Role[];
  /** Replay `Idempotency-Key` writes (default true); off in the gateway, where the upstream owns its writes. */
  idempotency?: boolean;
}
