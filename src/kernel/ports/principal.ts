import { stateKey } from '../../http/pipeline/request-state.ts';
import type { FastifyRequest } from 'fastify';
import type { UsageCall } from './usage.ts';

/** The roles a credential can hold. */
export type Role = 'read' | 'write' | 'admin';

/** Who is calling, once authenticated. */
export interface Principal {
  /** The client identifier: an API key's id, or a token's `sub` / `client_id`. */
  id: string;
  roles: ReadonlySet<Role>;
  /** The client (`cl_…`) this credential belongs to: an API key's client, or a JWT's `client_id` claim. */
  clientId?: string;
  /** How the caller authenticated: a Versionary key or JWT, the env admin key, or the app's own auth (`identify`). */
  kind: 'api-key' | 'jwt' | 'admin-env' | 'app';
}

/** Who is calling, once the `authenticate` step has read the credentials. */
const principalSlot = stateKey<Principal>('principal');

/** Attach the authenticated principal to a request. */
export function setPrincipal(request: FastifyRequest, principal: Principal): void {
  principalSlot.set(request, principal);
}

/** The authenticated principal of a request, if any. */
export function principalOf(request: FastifyRequest): Principal | undefined {
  return principalSlot.get(request);
}

/**
 * The client identifier for logs, usage records and rate limits: the principal's id, else the
 * remote address.
 */
export function clientIdOf(request: FastifyRequest): string {
  return principalOf(request)?.id ?? `ip:${request.ip}`;
}

/**
 * What keeps one caller's rate-limit window and idempotency records apart from every other's:
 * the credential, and for a JWT also its client. Identity providers often issue one subject to
 * several tenants (`sub: "ci-pipeline"` with a `client_id` each), and keyed by the subject alone,
 * one tenant would replay another's idempotent write and spend its budget. Parts are
 * percent-encoded under a prefix of their own, so no subject can spell another pair.
 */
export function tenantKeyOf(principal: Principal): string {
  if (principal.kind !== 'jwt' || principal.clientId === undefined) return principal.id;
  return `jwt-client:${encodeURIComponent(principal.clientId)}:${encodeURIComponent(principal.id.slice('jwt:'.length))}`;
}

/**
 * Who the app's own authentication says is calling (`identify` of the loop): the client the
 * calls count for, its roles, and optionally the credential's id (the client's by default).
 */
export interface AppIdentity {
  clientId: string;
  roles: readonly Role[];
  /** The credential, for rate limits and idempotency; `app:<clientId>` by default. */
  id?: string;
}

/** Who a usage record counts a call for. */
export type UsageIdentity = Pick<UsageCall, 'clientId' | 'keyId' | 'userAgent'>;

/** The client a request's usage counts for: the credential's client when it has one, else the credential id (or `ip:<address>`). */
export function usageClientIdOf(request: FastifyRequest): string {
  const principal = principalOf(request);
  return principal?.clientId ?? principal?.id ?? `ip:${request.ip}`;
}

/**
 * The usage identity of a request: the credential's client when it has one, else the credential
 * id (or `ip:<address>`), plus the credential id as the key and the `User-Agent`.
 */
export function usageIdentityOf(request: FastifyRequest): UsageIdentity {
  const principal = principalOf(request);
  const agent = request.headers['user-agent'];
  // Members set in order rather than spread: a deprecated call makes one of these per call.
  const identity: UsageIdentity = { clientId: principal?.clientId ?? principal?.id ?? `ip:${request.ip}` };
  if (principal) identity.keyId = principal.id;
  if (typeof agent === 'string' && agent.length > 0) identity.userAgent = agent.slice(0, 300);
  return identity;
}

/**
 * The client the lifecycle's per-client rules judge (extendedAccess, closings to new clients): the
 * credential's client, else the credential; undefined for an unauthenticated call.
 */
export function lifecycleClientOf(request: FastifyRequest): string | undefined {
  const principal = principalOf(request);
  return principal ? (principal.clientId ?? principal.id) : undefined;
}
