import { earlierNames } from '../../../core/earlier-names.ts';
import { Type, type TSchema } from '@sinclair/typebox';
import { adminRoute, idParams, instantInput, reasonText } from '../../host/admin-route-schemas.ts';

const at = (description: string) => Type.String({ format: 'date-time', maxLength: 40, description });
const nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description = schema.description!) =>
  Type.Union([schema, Type.Null()], { description });
const version = Type.String({ maxLength: 20, description: 'The version, e.g. `v1`.' });
// A request's endpoint leaves its path undescribed, as first published.
const endpointOf = (path: { description?: string }) =>
  Type.Object(
    { version, method: Type.String({ maxLength: 10 }), path: Type.String({ maxLength: 300, ...path }) },
    { additionalProperties: false, description: 'One endpoint of a version.' },
  );
const endpoint = endpointOf({ description: 'The path template, for example `/users/{id}`.' });

const grantProperties = {
  id: Type.String({ maxLength: 20, description: 'exm_ and 16 hex digits.' }),
  clientId: Type.String({ maxLength: 200 }),
  version,
  endpoint: Type.Optional(endpoint),
  element: Type.Optional(Type.String({ maxLength: 300, description: 'As the deprecations list names it.' })),
  until: at("The client's own sunset."),
  reason: Type.String({ maxLength: 1000 }),
  grantedBy: Type.String({
    maxLength: 300,
    description: 'Who granted it: the API key (name and id), the token subject, or `admin` for VERSIONARY_ADMIN_KEY.',
  }),
  grantedAt: at('When it was granted.'),
  revokedAt: nullable(at('When it was revoked; null while it stands.')),
  revokedBy: nullable(Type.String({ maxLength: 300 }), 'Who revoked it.'),
};
export const grant = (description: string) => Type.Object(grantProperties, { description });
// A list's answers: its page, or a 400 for a bad query.
const listed = (item: TSchema, description: string) => ({
  200: Type.Object({ data: Type.Array(item, { maxItems: 100_000 }) }, { description }),
  400: 'An invalid query parameter',
});
// The tag keeps the first release's name: its description is keyed by it.
const tags = [earlierNames.tag];

/** `POST /admin/v1/extended-access-grants`. */
export const grantExtendedAccessSchema = adminRoute({
  operationId: 'extendedAccess.grant',
  summary: 'Grant a client extended access past a sunset',
  tags,
  description:
    'Let one client keep calling a version, an endpoint, or a deprecated field or parameter after its sunset, until `until` (no later than its `extendedAccessUntil` cap). Give exactly one of `version`, `endpoint`, `element` (with `version`). Its responses carry its own `Sunset`; every other client gets the removal.',
  body: Type.Object(
    {
      clientId: Type.String({ minLength: 1, maxLength: 200, description: 'The client (`cl_…`).' }),
      version: Type.Optional(version),
      endpoint: Type.Optional(endpoint),
      element: Type.Optional(
        Type.String({ maxLength: 300, description: '`User.nickname`, `GET /users/{id}?fields`; with `version`.' }),
      ),
      until: instantInput("The client's own date: in the future, and no later than the cap."),
      reason: reasonText({ maxLength: 1000, description: 'Why: one line, not blank, no control characters.' }),
    },
    { additionalProperties: false },
  ),
  responseHeaders: { 201: ['Location'] },
  response: {
    201: grant('Granted; `Location` names the grant.'),
    400: 'The body is invalid: no or several subjects, an unknown client or subject, no cap, a date past the cap or in the past',
    409: 'The client already has a grant in force for this subject: the problem names it (revoke it to grant another date)',
  },
});

/** `GET /admin/v1/extended-access-grants`. */
const listExtendedAccessSchema = adminRoute({
  operationId: 'extendedAccess.list',
  summary: 'List grants of extended access',
  tags,
  description:
    'The grants of extended access in force (not revoked), oldest first, of one client with `clientId` (it names another resource to filter by, not the resource listed: `x-lint-skip`); `include=revoked` lists the whole trail.',
  'x-lint-skip': ['identifier-in-query'],
  querystring: Type.Object(
    {
      clientId: Type.Optional(Type.String({ maxLength: 200 })),
      include: Type.Optional(Type.Literal('revoked', { description: '`revoked`: the whole audit trail.' })),
    },
    { additionalProperties: false },
  ),
  response: listed(grant('A grant of extended access'), 'Grants, oldest first'),
});

/** `DELETE /admin/v1/extended-access-grants/{id}`. */
const revokeExtendedAccessSchema = adminRoute({
  operationId: 'extendedAccess.revoke',
  summary: 'Revoke a grant of extended access',
  tags,
  description: 'End a grant at once: the client gets the removal from its next call. The record stays.',
  params: idParams('The grant id (exm_…).'),
  response: {
    200: grant('Revoked; the record as it now stands.'),
    404: 'No grant in force with this id',
  },
});

const status = Type.Union([Type.Literal('pending'), Type.Literal('granted'), Type.Literal('declined')], {
  description: '`pending` until the owner grants or declines it.',
});

const extendedAccessRequest = (description: string) =>
  Type.Object(
    {
      id: Type.String({ maxLength: 20, description: 'exr_ and 16 hex digits.' }),
      clientId: Type.String({ maxLength: 200 }),
      version,
      endpoint: Type.Optional(endpointOf({})),
      element: grantProperties.element,
      reason: Type.String({ maxLength: 1000, description: "The consumer's reason." }),
      requestedUntil: nullable(at('The date the consumer wished for.'), 'Null when the consumer left it to the owner.'),
      status,
      createdAt: at('When it was asked.'),
      decidedAt: nullable(at('When it was decided.'), 'Null while pending.'),
      decidedBy: nullable(Type.String({ maxLength: 300 }), 'Who decided it, from the credential; null while pending.'),
      decisionNote: nullable(Type.String({ maxLength: 1000 }), "The decline's reason or the grant's note."),
      [earlierNames.grantIdMember]: nullable(
        Type.String({ maxLength: 20 }),
        'The grant of extended access a granted request made (exm_…): the wire name of the first release.',
      ),
    },
    { description },
  );

/** `GET /admin/v1/extended-access-requests`. */
const listRequestsSchema = adminRoute({
  operationId: 'extendedAccessRequests.list',
  summary: 'List requests for extended access',
  tags,
  description:
    "Consumers' requests for extended access past a sunset, asked from the portal, oldest first; `status=pending` lists the ones waiting for a decision.",
  querystring: Type.Object({ status: Type.Optional(status) }, { additionalProperties: false }),
  response: listed(extendedAccessRequest('A request for extended access'), 'Requests, oldest first'),
});

/** `POST /admin/v1/extended-access-requests/{id}/decisions`. */
const decideRequestSchema = adminRoute({
  operationId: 'extendedAccessRequests.decide',
  summary: 'Grant or decline a request for extended access',
  tags,
  description: `The owner's decision on a pending request. \`granted\` makes a grant as \`POST /admin/v1/extended-access-grants\` does (\`until\` in the future and no later than the cap; \`reason\` an optional note); \`declined\` needs a \`reason\`. Either way the client is told by its notice channels (\`${earlierNames.eventPrefix}.granted\`, \`${earlierNames.eventPrefix}.declined\`). A request is decided once: a second decision is a 409.`,
  params: idParams('The request id (exr_…).'),
  body: Type.Object(
    {
      decision: Type.Union([Type.Literal('granted'), Type.Literal('declined')], {
        description: '`granted` or `declined`.',
      }),
      until: Type.Optional(
        instantInput("With `granted`: the client's own date, in the future and no later than the cap."),
      ),
      reason: Type.Optional(
        reasonText({
          maxLength: 1000,
          description: 'With `declined` (required): why, told to the client. With `granted`: a note. One line.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: extendedAccessRequest(
      `Decided: the request with its status; \`${earlierNames.grantIdMember}\` names the grant a granted request made.`,
    ),
    400: 'The body is invalid, a grant without a date or a decline without a reason, or the date is past the cap or in the past',
    404: 'No request with this id',
    409: 'The request was already decided, or (a grant) the client already has a grant in force for the subject',
  },
});

/**
 * A resource's routes at its path and at the first release's, kept for its clients: the same
 * operations under the first release's operationIds (`exemptions.grant`), their texts saying so.
 */
function withEarlierPath<S extends Record<string, { operationId: string; summary: string; description: string }>>(
  resource: 'grants' | 'requests',
  schemas: S,
): { path: string; schema: S }[] {
  const earlier = Object.entries(schemas).map(([key, schema]) => [
    key,
    {
      ...schema,
      operationId: `${earlierNames[`${resource}Operation`]}.${key}`,
      summary: `${schema.summary} (the earlier path)`,
      description: `The first release's path for \`${schema.operationId}\`, kept for its clients. ${schema.description}`,
    },
  ]);
  return [
    { path: `/extended-access-${resource}`, schema: schemas },
    { path: earlierNames[`${resource}Path`], schema: Object.fromEntries(earlier) as S },
  ];
}

export const grantRoutes = withEarlierPath('grants', {
  grant: grantExtendedAccessSchema,
  list: listExtendedAccessSchema,
  revoke: revokeExtendedAccessSchema,
});
export const requestRoutes = withEarlierPath('requests', { list: listRequestsSchema, decide: decideRequestSchema });
