import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { formatIsoInstant } from '../../../core/time/index.ts';
import { createApiKey } from '../../access/auth/api-keys.ts';
import type { ApiKeyRecord } from '../../../kernel/ports/index.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';
import { queryIntegerSteps } from '../../../http/index.ts';
import { parsePage } from '../../../kernel/app/page.ts';
import { createApiKeySchema, listApiKeysSchema, revokeApiKeySchema } from './admin-schemas.ts';

/** `/admin/v1/api-keys`: create, list without secrets, revoke. */
export function registerApiKeyRoutes(app: FastifyInstance, { storage, clock, config }: LifecycleContext): void {
  const { apiKeys, clients } = storage;
  // Revocations run one at a time, so two requests cannot each revoke one of the last two admin keys.
  let revoking: Promise<unknown> = Promise.resolve();
  app.post('/api-keys', { schema: createApiKeySchema }, async (request, reply) => {
    const body = request.body as Static<typeof createApiKeySchema.body>;
    if (body.clientId !== undefined && !(await clients.find(body.clientId))) {
      throw new VersionaryError({
        code: ErrorCode.NotFound,
        detail: `No client ${body.clientId.slice(0, 40)}: create it first (POST /admin/v1/clients).`,
        errors: [{ pointer: '/body/clientId', detail: 'unknown client' }],
      });
    }
    const { record, key } = await createApiKey({ store: apiKeys, ...body, now: clock.now() });
    return reply
      .code(201)
      .header('location', `/admin/v1/api-keys/${record.id}`)
      .send({ ...toPublic(record), key });
  });
  // `limit` is read from canonical decimal digits into a number before validation, as on every list.
  const pageSteps = queryIntegerSteps(listApiKeysSchema.querystring);
  app.get('/api-keys', { schema: listApiKeysSchema, config: pageSteps }, async (request) => {
    const query = request.query as { limit?: number; cursor?: string };
    // A page of 100 by default: the list was unpaginated, and deployments rarely hold more keys.
    const { limit } = parsePage({ limit: query.limit ?? 100 });
    const all = await apiKeys.list();
    const after = query.cursor === undefined ? 0 : all.findIndex((k) => k.id === keyCursor.decode(query.cursor!)) + 1;
    if (after === 0 && query.cursor !== undefined) throw badCursor();
    const page = all.slice(after, after + limit);
    const last = page.at(-1);
    const more = last !== undefined && after + limit < all.length;
    return {
      data: page.map(toPublic),
      meta: { limit, nextCursor: more ? keyCursor.encode(last.id) : null },
    };
  });
  app.delete('/api-keys/:id', { schema: revokeApiKeySchema }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const run = revoking.then(() => revoke(id));
    revoking = run.catch(() => undefined);
    await run;
    return reply.code(204).send();
  });

  async function revoke(id: string): Promise<void> {
    const record = await apiKeys.find(id);
    if (
      record &&
      record.revokedAt === null &&
      record.roles.includes('admin') &&
      config.adminKey === undefined &&
      (await apiKeys.countActiveAdmins()) <= 1
    ) {
      throw new VersionaryError({
        code: ErrorCode.LastAdminKey,
        detail: `${id} is the last active admin key; revoking it would lock every operator out. Create another admin key first, or set VERSIONARY_ADMIN_KEY.`,
      });
    }
    if (!(await apiKeys.revoke({ id, at: clock.now() }))) {
      throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No active API key ${id.slice(0, 40)}.` });
    }
  }
}

const badCursor = () =>
  new VersionaryError({
    code: ErrorCode.ValidationFailed,
    detail: 'cursor is not one this API issued; use meta.nextCursor.',
    errors: [{ pointer: '/query/cursor', detail: 'malformed cursor' }],
  });

/** A list's cursor: its tag and the page's last key, in base64url; one this API did not issue is a 400. */
export const pageCursor = (tag: string, key: RegExp) => ({
  encode: (last: string) => Buffer.from(`${tag}:${last}`).toString('base64url'),
  decode(cursor: string): string {
    const text = /^[A-Za-z0-9_-]{1,300}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
    const match = new RegExp(`^${tag}:(${key.source})$`).exec(text);
    if (!match) throw badCursor();
    return match[1]!;
  },
});

// The cursor names the last key of the page; keys are never deleted, only revoked, so it stays valid.
const keyCursor = pageCursor('key', /key_[0-9a-f]{16}/);

function toPublic(r: ApiKeyRecord) {
  return {
    id: r.id,
    name: r.name,
    roles: r.roles,
    contact: r.contact,
    clientId: r.clientId ?? null,
    createdAt: formatIsoInstant(r.createdAt),
    revokedAt: r.revokedAt === null ? null : formatIsoInstant(r.revokedAt),
  };
}
