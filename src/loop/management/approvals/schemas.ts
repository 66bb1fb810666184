import { Type } from '@sinclair/typebox';
import { requestHeadLimit } from '../../../kernel/app/request-head.ts';
import { NoQuery, instantInput, problems, reasonText } from '../../host/admin-route-schemas.ts';

const fingerprint = Type.String({
  pattern: '^[0-9a-f]{16}$',
  maxLength: 16,
  description: 'The change fingerprint that `versionary diff` prints: 16 lower-case hex digits.',
});
const at = (description: string) => Type.String({ format: 'date-time', maxLength: 40, description });
const nullableAt = (description: string) => Type.Union([at(description), Type.Null()], { description });

const approvalProperties = {
  id: Type.String({ maxLength: 20, description: 'apv_ and 16 hex digits.' }),
  fingerprint,
  reason: Type.String({ maxLength: 1000 }),
  approvedBy: Type.String({
    maxLength: 300,
    description: 'Who approved: the API key (name and id), the token subject, or `admin` for VERSIONARY_ADMIN_KEY.',
  }),
  approvedAt: at('When it was approved.'),
  expiresAt: nullableAt('When the approval stops counting; null: never.'),
  revokedAt: nullableAt('When it was revoked; null while it stands.'),
  revokedBy: Type.Union([Type.String({ maxLength: 300 }), Type.Null()], { description: 'Who revoked it.' }),
};
/** An approval as answered, described for one response. */
const approval = (description: string) => Type.Object(approvalProperties, { description });

const tags = ['approvals'];

/** `POST /admin/v1/approvals`. */
export const createApprovalSchema = {
  operationId: 'approvals.create',
  summary: 'Approve a breaking change',
  tags,
  description:
    'Accept the change with this fingerprint: `versionary diff --server` then reports it Approved, with who approved it and why, instead of Broken.',
  querystring: NoQuery,
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
    ...problems({ 400: 'The body is invalid, or expiresAt is not in the future' }),
  },
};

/** `GET /admin/v1/approvals`. */
export const listApprovalsSchema = {
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
    ...problems({ 400: 'An invalid query parameter' }),
  },
};

/** `DELETE /admin/v1/approvals/{id}`. */
export const revokeApprovalSchema = {
  operationId: 'approvals.revoke',
  summary: 'Revoke an approval',
  tags,
  description:
    'Withdraw an approval: the change counts as Broken again where it hurts a client. The record stays, with who revoked it and when.',
  querystring: NoQuery,
  params: Type.Object({ id: Type.String({ maxLength: requestHeadLimit, description: 'The approval id (apv_…).' }) }),
  response: {
    200: approval('Revoked; the record as it now stands.'),
    ...problems({ 400: 'An unknown query parameter', 404: 'No approval in force with this id' }),
  },
};
