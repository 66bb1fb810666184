import type { FastifyRequest } from 'fastify';

/** The roles a credential can hold. */
export type Role = 'read' | 'write' | 'admin';

/** Who is calling, once authenticated. */
export interface Principal {
  /** The client identifier: an API key's id, or a token's `sub` / `client_id`. */
  id: string;
  roles: ReadonlySet<Role>;
  /** The client (`cl_…`) this credential belongs to: an API key's client, or a JWT's `client_id` claim. */
  clientId?: string;
  /** How the caller authenticated. */
  kind: 'api-key' | 'jwt' | 'admin-env';
}

const kPrincipal = Symbol.for('versionary.principal');
type WithPrincipal = FastifyRequest & { [kPrincipal]?: Principal };

/**
 * Attach the authenticated principal to a request.
 *
 * @example
 * ```ts
 * setPrincipal(request, { id: 'key_1', roles: new Set(['read']), kind: 'api-key' });
 * ```
 */
export function setPrincipal(request: FastifyRequest, principal: Principal): void {
  (request as WithPrincipal)[kPrincipal] = principal;
}

/**
 * The authenticated principal of a request, if any.
 *
 * @example
 * ```ts
 * principalOf(request)?.id
 * ```
 */
export function principalOf(request: FastifyRequest): Principal | undefined {
  return (request as WithPrincipal)[kPrincipal];
}

/**
 * The client identifier for logs, usage records and rate limits: the principal's id, else the
 * remote address.
 *
 * @example
 * ```ts
 * clientIdOf(request) // 'key_ab12…' or '127.0.0.1'
 * ```
 */
export function clientIdOf(request: FastifyRequest): string {
  return principalOf(request)?.id ?? `ip:${request.ip}`;
}

/** Who a usage record counts a call for. */
export interface UsageIdentity {
  clientId: string;
  keyId?: string;
  userAgent?: string;
}

/**
 * The usage identity of a request: the credential's client when it has one, else the credential
 * id (or `ip:<address>`), plus the credential id as the key and the `User-Agent`.
 *
 * @example
 * ```ts
 * usageIdentityOf(request) // { clientId: 'cl_…', keyId: 'key_…', userAgent: 'acme-sdk/1.2' }
 * ```
 */
export function usageIdentityOf(request: FastifyRequest): UsageIdentity {
  const principal = principalOf(request);
  const agent = request.headers['user-agent'];
  return {
    clientId: principal?.clientId ?? principal?.id ?? `ip:${request.ip}`,
    ...(principal ? { keyId: principal.id } : {}),
    ...(typeof agent === 'string' && agent.length > 0 ? { userAgent: agent.slice(0, 300) } : {}),
  };
}
