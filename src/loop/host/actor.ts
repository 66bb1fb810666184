import type { FastifyRequest } from 'fastify';
import { principalOf } from '../../kernel/ports/principal.ts';
import type { ApiKeyStore } from '../../kernel/ports/index.ts';

/** The caller as the trail names it: `name (key_…)` for an API key, the principal id otherwise. */
export async function actorOf(request: FastifyRequest, apiKeys: ApiKeyStore): Promise<string> {
  const principal = principalOf(request);
  if (!principal) return 'unknown';
  if (principal.kind === 'admin-env') return 'admin';
  if (principal.kind === 'api-key') {
    const key = await apiKeys.find(principal.id);
    return key ? `${key.name} (${key.id})` : principal.id;
  }
  return principal.id;
}
