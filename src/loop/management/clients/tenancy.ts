import type { FastifyRequest } from 'fastify';
import type { Owner } from '../../../kernel/ports/index.ts';
import { principalOf } from '../../../kernel/ports/principal.ts';

/**
 * Whose resources a request may see and change: every one for admins (undefined), else those of
 * its credential's client, or, for a credential without a client, those created without one.
 * So a deployment that never registers clients behaves as it did before tenancy: one tenant.
 */
export function ownerScopeOf(request: FastifyRequest): Owner | undefined {
  const principal = principalOf(request);
  if (principal?.roles.has('admin')) return undefined;
  return principal?.clientId ?? null;
}

/** The owner a resource created by this request gets: the credential's client, or none. */
export function creatorOf(request: FastifyRequest): Owner {
  return principalOf(request)?.clientId ?? null;
}

/** True when a resource of `owner` is visible under `scope`. */
export function isVisible(options: { owner: Owner; scope: Owner | undefined }): boolean {
  return options.scope === undefined || options.owner === options.scope;
}
