import { earlierNames } from '../../../core/earlier-names.ts';
import { Type } from '@sinclair/typebox';
import { requestHeadLimit } from '../../../kernel/app/request-head.ts';
import { NoQuery, instantInput, problems, reasonText } from '../../host/admin-route-schemas.ts';

const at = (description: string) => Type.String({ format: 'date-time', maxLength: 40, description });
const nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });
const version = Type.String({ maxLength: 20, description: 'The version, e.g. `v1`.' });
const status = Type.Union([Type.Literal('pending'), Type.Literal('granted'), Type.Literal('declined')], {
  description: '`pending` until the owner grants or declines it.',
});

const extendedAccessRequest = (description: string) =>
  Type.Object(
    {
      id: Type.String({ maxLength: 20, description: 'exr_ and 16 hex digits.' }),
      clientId: Type.String({ maxLength: 200 }),
      version,
      endpoint: Type.Optional(
        Type.Object(
          { version, method: Type.String({ maxLength: 10 }), path: Type.String({ maxLength: 300 }) },
          { additionalProperties: false, description: 'One endpoint of a version.' },
        ),
      ),
      element: Type.Optional(Type.String({ maxLength: 300, description: 'As the deprecations list names it.' })),
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
const tags = [earlierNames.tag];
const params = Type.Object({
  id: Type.String({ maxLength: requestHeadLimit, description: 'The request id (exr_…).' }),
});
const conflict = {
  404: 'No request with this id',
  409: 'The request was already decided, or (a grant) the client already has a grant in force for the subject',
};

/** `GET /admin/v1/extended-access-requests`. */
export const listRequestsSchema = {
  operationId: 'extendedAccessRequests.list',
  summary: 'List requests for extended access',
  tags,
  description:
    "Consumers' requests for extended access past a sunset, asked from the portal, oldest first; `status=pending` lists the ones waiting for a decision.",
  querystring: Type.Object({ status: Type.Optional(status) }, { additionalProperties: false }),
  response: {
    200: Type.Object(
      { data: Type.Array(extendedAccessRequest('A request for extended access'), { maxItems: 100_000 }) },
      { description: 'Requests, oldest first' },
    ),
    ...problems({ 400: 'An invalid query parameter' }),
  },
};

/** `POST /admin/v1/extended-access-requests/{id}/decisions`. */
export const decideRequestSchema = {
  operationId: 'extendedAccessRequests.decide',
  summary: 'Grant or decline a request for extended access',
  tags,
  description: `The owner's decision on a pending request. \`granted\` makes a grant as \`POST /admin/v1/extended-access-grants\` does (\`until\` in the future and no later than the cap; \`reason\` an optional note); \`declined\` needs a \`reason\`. Either way the client is told by its notice channels (\`${earlierNames.eventPrefix}.granted\`, \`${earlierNames.eventPrefix}.declined\`). A request is decided once: a second decision is a 409.`,
  querystring: NoQuery,
  params,
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
    ...problems({
      400: 'The body is invalid, a grant without a date or a decline without a reason, or the date is past the cap or in the past',
      ...conflict,
    }),
  },
};
