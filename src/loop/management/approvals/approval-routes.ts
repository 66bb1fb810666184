import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';
import type { ApiKeyStore, ApprovalStore, ChangeApproval } from '../../../kernel/ports/index.ts';
import { createApprovalSchema, listApprovalsSchema, revokeApprovalSchema } from './schemas.ts';
import { actorOf } from '../../host/actor.ts';

/** Options for {@link registerApprovalRoutes}. */
export interface ApprovalRoutesOptions {
  approvals: ApprovalStore;
  apiKeys: ApiKeyStore;
  clock: Clock;
}

/**
 * `/admin/v1/approvals`: approve a breaking change by fingerprint, list approvals in force (or
 * the whole trail), revoke one. Who approved and who revoked come from the credential, never
 * from the body, so the trail says who acted.
 */
export function registerApprovalRoutes(app: FastifyInstance, options: ApprovalRoutesOptions): void {
  const { approvals, clock } = options;
  app.post('/approvals', { schema: createApprovalSchema }, async (request, reply) => {
    const body = request.body as { fingerprint: string; reason: string; expiresAt?: string };
    const now = clock.now();
    const expiresAt = body.expiresAt === undefined ? null : futureInstant(body.expiresAt, now);
    const approval: ChangeApproval = {
      id: `apv_${randomBytes(8).toString('hex')}`,
      fingerprint: body.fingerprint,
      reason: body.reason,
      approvedBy: await actorOf(request, options.apiKeys),
      approvedAt: now,
      expiresAt,
      revokedAt: null,
      revokedBy: null,
    };
    await approvals.insert(approval);
    return reply.code(201).header('location', `/admin/v1/approvals/${approval.id}`).send(toBody(approval));
  });
  app.get('/approvals', { schema: listApprovalsSchema }, async (request) => {
    const { include } = request.query as { include?: 'revoked' };
    const list = await approvals.list({ now: clock.now(), includeRevoked: include === 'revoked' });
    return { data: list.map(toBody) };
  });
  app.delete('/approvals/:id', { schema: revokeApprovalSchema }, async (request) => {
    const { id } = request.params as { id: string };
    const revoked = await approvals.revoke({ id, at: clock.now(), by: await actorOf(request, options.apiKeys) });
    const record = revoked ? await approvals.find(id) : undefined;
    if (!record)
      throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No approval in force ${id.slice(0, 40)}.` });
    return toBody(record);
  });
}

function futureInstant(text: string, now: number): number {
  const at = parseIsoInstant(text);
  if (at === undefined || at <= now) {
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `expiresAt must be an ISO 8601 date or instant in the future, such as 2026-12-31 (got ${text.slice(0, 40)}).`,
      errors: [{ pointer: '/body/expiresAt', detail: at === undefined ? 'not an ISO 8601 date' : 'not in the future' }],
    });
  }
  return at;
}

function toBody(a: ChangeApproval) {
  const iso = (v: number | null) => (v === null ? null : formatIsoInstant(v));
  return {
    id: a.id,
    fingerprint: a.fingerprint,
    reason: a.reason,
    approvedBy: a.approvedBy,
    approvedAt: formatIsoInstant(a.approvedAt),
    expiresAt: iso(a.expiresAt),
    revokedAt: iso(a.revokedAt),
    revokedBy: a.revokedBy,
  };
}
