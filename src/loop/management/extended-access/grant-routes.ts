import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { formatIsoInstant } from '../../../core/time/index.ts';
import type { ClientExemption, Storage } from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../../lifecycle/runtime.ts';
import { actorOf } from '../approvals/approval-routes.ts';
import { checkGrant, type GrantBody } from './check-grant.ts';
import { grantExemptionSchema, listExemptionsSchema, revokeExemptionSchema } from './schemas.ts';

/**
 * `/admin/v1/exemptions`: grant a client extended access past a sunset (within its cap), list
 * them, revoke one. Who granted and who revoked come from the credential, never from the body.
 * The store announces each change on the change feed, so every instance reloads its exemptions.
 */
export function registerExemptionRoutes(
  app: FastifyInstance,
  options: { storage: Pick<Storage, 'exemptions' | 'clients' | 'apiKeys'>; runtime: LifecycleRuntime; clock: Clock },
): void {
  const { storage, runtime, clock } = options;
  app.post('/exemptions', { schema: grantExemptionSchema }, async (request, reply) => {
    const exemption = await grantExemption(options, {
      body: request.body as GrantBody,
      actor: await actorOf(request, storage.apiKeys),
    });
    return reply.code(201).header('location', `/admin/v1/exemptions/${exemption.id}`).send(exemptionBody(exemption));
  });
  app.get('/exemptions', { schema: listExemptionsSchema }, async (request) => {
    const { clientId, include } = request.query as { clientId?: string; include?: 'revoked' };
    const list = await storage.exemptions.list({
      ...(clientId ? { clientId } : {}),
      includeRevoked: include === 'revoked',
    });
    return { data: list.map(exemptionBody) };
  });
  app.delete('/exemptions/:id', { schema: revokeExemptionSchema }, async (request) => {
    const { id } = request.params as { id: string };
    const revoked = await storage.exemptions.revoke({
      id,
      at: clock.now(),
      by: await actorOf(request, storage.apiKeys),
    });
    const record = revoked ? await storage.exemptions.find(id) : undefined;
    if (!record)
      throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No exemption in force ${id.slice(0, 40)}.` });
    await runtime.refresh();
    return exemptionBody(record);
  });
}

/**
 * Grant an exemption: checked against the lifecycle as it is (one subject, a known client, a
 * date no later than the cap, no grant in force for the same client and subject: a 409 naming
 * it), stored, and in force on this instance at once. Both
 * `POST /exemptions` and a granted request go through here, so the cap rule holds for both.
 */
export async function grantExemption(
  options: { storage: Pick<Storage, 'exemptions' | 'clients'>; runtime: LifecycleRuntime; clock: Clock },
  { body, actor }: { body: GrantBody; actor: string },
): Promise<ClientExemption> {
  const { storage, runtime, clock } = options;
  const now = clock.now();
  const known = (await storage.clients.find(body.clientId)) !== undefined;
  const { subject, until } = checkGrant({ body, runtime, now, clientKnown: known });
  const exemption: ClientExemption = {
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
  const existing = await storage.exemptions.insert(exemption);
  // One grant per client and subject: a second would be a row the first's revocation leaves behind.
  if (existing) throw alreadyGranted(existing);
  // This instance at once; the others on the change feed.
  await runtime.refresh();
  return exemption;
}

/** The 409 of a second grant: it names the one in force, to revoke before granting another date. */
function alreadyGranted(e: ClientExemption): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.Conflict,
    detail: `The client already has extended access to this subject: ${e.id}, until ${formatIsoInstant(e.until)}. Revoke it (DELETE /admin/v1/exemptions/${e.id}) to grant another date.`,
  });
}

/** An exemption as the management API shows it. */
function exemptionBody(e: ClientExemption) {
  const s = e.subject;
  return {
    id: e.id,
    clientId: e.clientId,
    version: s.version,
    ...(s.kind === 'endpoint' ? { endpoint: { version: s.version, method: s.method, path: s.path } } : {}),
    ...(s.kind === 'element' ? { element: s.element } : {}),
    until: formatIsoInstant(e.until),
    reason: e.reason,
    grantedBy: e.grantedBy,
    grantedAt: formatIsoInstant(e.grantedAt),
    revokedAt: e.revokedAt === null ? null : formatIsoInstant(e.revokedAt),
    revokedBy: e.revokedBy,
  };
}
