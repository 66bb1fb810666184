import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { formatIsoInstant } from '../../../core/time/index.ts';
import type { ExtendedAccessGrant, ExtendedAccessSubject, Storage } from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../runtime.ts';
import { checkGrant, type GrantBody } from './check-grant.ts';
import { grantRoutes } from './schemas.ts';
import { actorOf } from '../../host/actor.ts';

/**
 * `/admin/v1/extended-access-grants` (and its earlier path): grant, list, revoke. Who granted and
 * who revoked come from the credential, never from the body.
 */
export function registerExtendedAccessRoutes(
  app: FastifyInstance,
  options: {
    storage: Pick<Storage, 'extendedAccess' | 'clients' | 'apiKeys'>;
    runtime: LifecycleRuntime;
    clock: Clock;
  },
): void {
  const { storage, runtime, clock } = options;
  for (const { path, schema } of grantRoutes) {
    app.post(path, { schema: schema.grant }, async (request, reply) => {
      const grant = await grantExtendedAccess(options, {
        body: request.body as GrantBody,
        actor: await actorOf(request, storage.apiKeys),
      });
      return reply.code(201).header('location', `/admin/v1${path}/${grant.id}`).send(grantBody(grant));
    });
    app.get(path, { schema: schema.list }, async (request) => {
      const { clientId, include } = request.query as { clientId?: string; include?: 'revoked' };
      const list = await storage.extendedAccess.list({
        ...(clientId ? { clientId } : {}),
        includeRevoked: include === 'revoked',
      });
      return { data: list.map(grantBody) };
    });
    app.delete(`${path}/:id`, { schema: schema.revoke }, async (request) => {
      const { id } = request.params as { id: string };
      const revoked = await storage.extendedAccess.revoke({
        id,
        at: clock.now(),
        by: await actorOf(request, storage.apiKeys),
      });
      const record = revoked ? await storage.extendedAccess.find(id) : undefined;
      if (!record)
        throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No grant in force ${id.slice(0, 40)}.` });
      await runtime.refresh();
      return grantBody(record);
    });
  }
}

/** Grant extended access, checked (`checkGrant`, one grant per client and subject) and in force here at once. */
export async function grantExtendedAccess(
  options: { storage: Pick<Storage, 'extendedAccess' | 'clients'>; runtime: LifecycleRuntime; clock: Clock },
  { body, actor }: { body: GrantBody; actor: string },
): Promise<ExtendedAccessGrant> {
  const { storage, runtime, clock } = options;
  const now = clock.now();
  const known = (await storage.clients.find(body.clientId)) !== undefined;
  const { subject, until } = checkGrant({ body, runtime, now, clientKnown: known });
  const grant: ExtendedAccessGrant = {
    id: `exm_${randomBytes(8).toString('hex')}`,
    clientId: body.clientId,
    subject,
    until,
    reason: body.reason,
    grantedBy: actor,
    grantedAt: now,
    revokedAt: null,
    revokedBy: null,
  };
  const existing = await storage.extendedAccess.insert(grant);
  // One grant per client and subject: a second would be a row the first's revocation leaves behind.
  if (existing)
    throw new VersionaryError({
      code: ErrorCode.Conflict,
      detail: `The client already has extended access to this subject: ${existing.id}, until ${formatIsoInstant(existing.until)}. Revoke it (DELETE /admin/v1/extended-access-grants/${existing.id}) to grant another date.`,
    });
  // This instance at once; the others on the change feed.
  await runtime.refresh();
  return grant;
}

function grantBody(e: ExtendedAccessGrant) {
  return {
    id: e.id,
    clientId: e.clientId,
    ...subjectMembers(e.subject),
    until: formatIsoInstant(e.until),
    reason: e.reason,
    grantedBy: e.grantedBy,
    grantedAt: formatIsoInstant(e.grantedAt),
    revokedAt: e.revokedAt === null ? null : formatIsoInstant(e.revokedAt),
    revokedBy: e.revokedBy,
  };
}

/** A subject as the management API shows it (and a grant's body names it). */
export function subjectMembers(s: ExtendedAccessSubject) {
  return {
    version: s.version,
    ...(s.kind === 'endpoint' ? { endpoint: { version: s.version, method: s.method, path: s.path } } : {}),
    ...(s.kind === 'element' ? { element: s.element } : {}),
  };
}
