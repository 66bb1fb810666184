import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { formatIsoInstant } from '../../core/lifecycle/index.ts';
import { createApiKey } from '../auth/api-keys.ts';
import type { Role } from '../auth/principal.ts';
import type { ApiKeyRecord, ApiKeyStore, ClientStore } from '../ports/index.ts';

const createBody = {
  type: 'object', additionalProperties: false, required: ['name', 'roles'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    roles: { type: 'array', minItems: 1, maxItems: 3, uniqueItems: true, items: { type: 'string', enum: ['read', 'write', 'admin'] } },
    contact: { type: 'string', format: 'email', maxLength: 254 },
    clientId: { type: 'string', minLength: 1, maxLength: 100, description: 'The client (cl_…) the key acts for: its usage and resources are that client\'s.' },
  },
};

/**
 * Key management: create (the secret is in this response only), list without secrets, revoke.
 *
 * @example
 * ```ts
 * registerApiKeyRoutes(admin, { apiKeys: storage.apiKeys, clients: storage.clients, clock });
 * ```
 */
export function registerApiKeyRoutes(app: FastifyInstance, options: { apiKeys: ApiKeyStore; clients: ClientStore; clock: Clock }): void {
  app.post('/api-keys', { schema: { body: createBody } }, async (request, reply) => {
    const body = request.body as { name: string; roles: Role[]; contact?: string; clientId?: string };
    if (body.clientId !== undefined && !(await options.clients.find(body.clientId))) {
      throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No client ${body.clientId.slice(0, 40)}: create it first (POST /admin/v1/clients).`, errors: [{ pointer: '/body/clientId', detail: 'unknown client' }] });
    }
    const { record, key } = await createApiKey({ store: options.apiKeys, ...body, now: options.clock.now() });
    return reply.code(201).header('location', `/admin/v1/api-keys/${record.id}`).send({ ...toPublic(record), key });
  });
  app.get('/api-keys', async () => ({ data: (await options.apiKeys.list()).map(toPublic) }));
  app.delete('/api-keys/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!(await options.apiKeys.revoke({ id, at: options.clock.now() }))) {
      throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No active API key ${id.slice(0, 40)}.` });
    }
    return reply.code(204).send();
  });
}

function toPublic(r: ApiKeyRecord) {
  return { id: r.id, name: r.name, roles: r.roles, contact: r.contact, clientId: r.clientId ?? null, createdAt: formatIsoInstant(r.createdAt), revokedAt: r.revokedAt === null ? null : formatIsoInstant(r.revokedAt) };
}
