import { Type, type Static } from '@sinclair/typebox';
import { adminRoute, idParams, instant, instantInput, nullable, reasonText } from '../../host/admin-route-schemas.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';
import type { ChangeApproval } from '../../../kernel/ports/index.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';
import { actorOf } from '../../host/actor.ts';

const fingerprint = Type.String({
  pattern: '^[0-9a-f]{16}$',
  maxLength: 16,
  description: 'The change fingerprint that `versionary diff` prints: 16 lower-case hex digits.',
});
const nullableAt = (description: string) => nullable(instant(description), description);

const approvalProperties = {
  id: Type.String({ maxLength: 20, description: 'apv_ and 16 hex digits.' }),
  fingerprint,
  reason: Type.String({ maxLength: 1000 }),
  approvedBy: Type.String({
    maxLength: 300,
    description: 'Who approved: the API key (name and id), the token subject, or `admin` for VERSIONARY_ADMIN_KEY.',
  }),
  approvedAt: instant('When it was approved.'),
  expiresAt: nullableAt('When the approval stops counting; null: never.'),
  revokedAt: nullableAt('When it was revoked; null while it stands.'),
  revokedBy: nullable(Type.String({ maxLength: 300 }), 'Who revoked it.'),
};
/** An approval as answered, described for one response. */
export const approval = (description: string) => Type.Object(approvalProperties, { description });

const tags = ['approvals'];

const createApprovalSchema = adminRoute({
  operationId: 'approvals.create',
  summary: 'Approve a breaking change',
  tags,
  description:
    'Accept the change with this fingerprint: `versionary diff --server` then reports it Approved, with who approved it and why, instead of Broken.',
  body: Type.Object(
    {
      fingerprint,
      reason: reasonText({
        maxLength: 1000,
        description: 'Why the break is accepted: one line, no control characters.',
      }),
      expiresAt: Type.Optional(instantInput('When the approval stops counting (in the future); none by default.')),
    },
    { additionalProperties: false },
  ),
  responseHeaders: { 201: ['Location'] },
  response: {
    201: approval('Approved; `Location` names the approval.'),
    400: 'The body is invalid, or expiresAt is not in the future',
  },
});

const listApprovalsSchema = adminRoute({
  operationId: 'approvals.list',
  summary: 'List approvals',
  tags,
  description:
    'The approvals in force (neither revoked nor expired), oldest first; `include=revoked` lists every approval ever given, revoked and expired ones too: the audit trail.',
  querystring: Type.Object(
    {
      include: Type.Optional(Type.Literal('revoked', { description: '`revoked`: the whole audit trail.' })),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object(
      { data: Type.Array(approval('An approval of a breaking change'), { maxItems: 100_000 }) },
      { description: 'Approvals, oldest first' },
    ),
    400: 'An invalid query parameter',
  },
});

const revokeApprovalSchema = adminRoute({
  operationId: 'approvals.revoke',
  summary: 'Revoke an approval',
  tags,
  description:
    'Withdraw an approval: the change counts as Broken again where it hurts a client. The record stays, with who revoked it and when.',
  params: idParams('The approval id (apv_…).'),
  response: {
    200: approval('Revoked; the record as it now stands.'),
    404: 'No approval in force with this id',
  },
});

/**
 * `/admin/v1/approvals`: approve a breaking change by fingerprint, list approvals in force (or
 * the whole trail), revoke one. Who approved and who revoked come from the credential, never
 * from the body, so the trail says who acted.
 */
export function registerApprovalRoutes(app: FastifyInstance, { storage, clock }: LifecycleContext): void {
  const { approvals, apiKeys } = storage;
  app.post('/approvals', { schema: createApprovalSchema }, async (request, reply) => {
    const body = request.body as Static<typeof createApprovalSchema.body>;
    const now = clock.now();
    const expiresAt = body.expiresAt === undefined ? null : futureInstant(body.expiresAt, now);
    const approval: ChangeApproval = {
      id: `apv_${randomBytes(8).toString('hex')}`,
      fingerprint: body.fingerprint,
      reason: body.reason,
      approvedBy: await actorOf(request, apiKeys),
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
    const revoked = await approvals.revoke({ id, at: clock.now(), by: await actorOf(request, apiKeys) });
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
  return { ...a, approvedAt: formatIsoInstant(a.approvedAt), expiresAt: iso(a.expiresAt), revokedAt: iso(a.revokedAt) };
}
