import { Type, type TSchema } from '@sinclair/typebox';
import { migrationUrlMaxLength, migrationUrlPattern, singleLineTextPattern } from '../../../core/text/index.ts';
import { deprecationDatesSchema, type DeprecationDates } from '../../../core/lifecycle/index.ts';
import { emailPattern, emailRule } from '../../../core/text/email.ts';
import { adminRoute, count, instant, instantInput, nullable, pageLimit } from '../../host/admin-route-schemas.ts';

/**
 * Route schemas of the management API, in TypeBox: the same objects validate requests, shape
 * responses and generate `/admin/v1/openapi.json`. Every route lists each response it gives;
 * the statuses answered in front of the handlers (401, 403, 429, 500, 503) are added by the
 * document generator. `responseHeaders` names the headers a handler sets, by status.
 */
const versionName = Type.String({
  pattern: '^v[1-9][0-9]{0,5}$',
  maxLength: 7,
  description: 'A version name: v1, v2, ...',
});
const role = Type.Union([Type.Literal('read'), Type.Literal('write'), Type.Literal('admin')]);
const url = (description: string) => Type.String({ format: 'uri-reference', maxLength: 2000, description });
// An absolute http(s) URL or a path: it goes into `Link` headers and the portal's links.
const migrationUrlInput = (description: string) =>
  Type.String({
    format: 'uri-reference',
    minLength: 1,
    maxLength: migrationUrlMaxLength,
    pattern: migrationUrlPattern,
    description,
  });
const cursor = (description: string) =>
  Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]+$', maxLength: 200, description }));
const pageMeta = Type.Object({
  limit: Type.Integer({ format: 'int32', minimum: 1, maximum: 100 }),
  nextCursor: nullable(
    Type.String({ maxLength: 200, description: 'Pass as `cursor` for the next page; null on the last page.' }),
  ),
});
// The fields a version's and an endpoint's deprecation bodies share.
const reason = Type.Optional(Type.Union([Type.Literal('planned'), Type.Literal('critical-fix')]));
const sunsetAt = Type.Optional(instantInput('ISO 8601 instant; overrides noticeMonths.'));
const migrationUrl = Type.Optional(
  migrationUrlInput('An absolute http or https URL, or a path starting with `/` (not `//`).'),
);

/**
 * The cap on extended access and the closing to new clients as a route takes or shows them: the
 * lifecycle schema's two dates (`deprecationDatesSchema`), over the route's instant, each with its
 * description.
 */
export const deprecationDates = <I extends TSchema>(
  instant: (description: string) => I,
  descriptions: Record<keyof DeprecationDates, string>,
) => deprecationDatesSchema((key) => instant(descriptions[key])).properties;

/** A name or reason as the management API takes it: one line, no control characters. */
export const singleLineText = (options: { maxLength: number; description?: string }) =>
  Type.String({ minLength: 1, pattern: singleLineTextPattern, ...options });

const email = (description: string) => Type.String({ pattern: emailPattern, maxLength: 254, description });
const apiKey = Type.Object({
  id: Type.String({
    pattern: '^key_[0-9a-f]{16}$',
    maxLength: 20,
    description: 'The key id; the public part of the key.',
  }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  roles: Type.Array(Type.String({ maxLength: 20 }), { maxItems: 3, description: 'read, write and/or admin.' }),
  contact: nullable(email(emailRule)),
  clientId: nullable(Type.String({ maxLength: 100, description: 'The client (cl_…) the key acts for, if any.' })),
  createdAt: instant('When the key was created.'),
  revokedAt: nullable(instant('When the key was revoked.')),
});

export const createApiKeySchema = adminRoute({
  operationId: 'apiKeys.create',
  summary: 'Create an API key',
  tags: ['api-keys'],
  description: 'Create a key with roles. The secret is in this response only; store it.',
  responseHeaders: { 201: ['Location'] },
  body: Type.Object(
    {
      name: singleLineText({ maxLength: 100, description: 'A name for people: one line, no control characters.' }),
      roles: Type.Array(role, { minItems: 1, maxItems: 3, uniqueItems: true }),
      contact: Type.Optional(email(`Where deprecation notices for this key go. ${emailRule}`)),
      clientId: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: "The client (cl_…) the key acts for: its usage and resources are that client's.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    201: Type.Object(
      {
        ...apiKey.properties,
        key: Type.String({
          pattern: '^vk_[0-9a-f]{16}\\.[A-Za-z0-9_-]{43}$',
          maxLength: 64,
          description: 'The secret key: shown once.',
        }),
      },
      { description: 'Created; `Location` names the key.' },
    ),
    400: 'The body is invalid',
    404: 'No client with this clientId',
  },
});

export const listApiKeysSchema = adminRoute({
  operationId: 'apiKeys.list',
  summary: 'List API keys',
  tags: ['api-keys'],
  description: 'Every key, active and revoked, oldest first, without secrets, a page at a time.',
  querystring: Type.Object(
    {
      limit: pageLimit(100),
      cursor: cursor('meta.nextCursor of the previous page.'),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object(
      {
        data: Type.Array(apiKey, { maxItems: 100 }),
        meta: pageMeta,
      },
      { description: 'A page of keys, oldest first' },
    ),
    400: 'An invalid query parameter',
  },
});

export const revokeApiKeySchema = adminRoute({
  operationId: 'apiKeys.revoke',
  summary: 'Revoke an API key',
  tags: ['api-keys'],
  description: 'Revoke a key at once: requests with it then answer 401.',
  params: Type.Object({ id: Type.String({ maxLength: 200, description: 'The key id (`key_...`).' }) }),
  response: {
    204: Type.Null({ description: 'Revoked' }),
    404: 'No active key with this id',
    409: 'The last active admin key, while no VERSIONARY_ADMIN_KEY is set',
  },
});

const usage = Type.Object({
  calls: count('Calls recorded to this deprecated version.'),
  clients: count('Distinct clients among them.'),
  endpoints: count('Distinct endpoints among them.'),
});

/** A version as the management API answers it; the CLI's `versions list` prints it. */
export const versionDetail = Type.Object(
  {
    name: versionName,
    state: Type.Union(['active', 'deprecated', 'sunset_window', 'removed'].map((v) => Type.Literal(v))),
    status: Type.Union(['not_deprecated', 'deprecated', 'ending_soon', 'removed'].map((v) => Type.Literal(v))),
    releasedAt: nullable(instant('When the version was released; null when no date is known (none was declared).')),
    deprecatedAt: nullable(instant('When the version was deprecated.')),
    sunsetAt: nullable(instant('When the version is (or was) removed.')),
    replacement: nullable(versionName),
    migrationUrl: nullable(url('The migration guide.')),
    openapiUrl: nullable(url("The version's OpenAPI document.")),
    removed: Type.Boolean({ description: 'Whether the version is flagged removed.' }),
    usage,
  },
  { description: 'A version, its lifecycle and the usage recorded while deprecated' },
);

const versionParams = Type.Object({
  name: Type.String({ maxLength: 40, description: 'The version name, for example `v1`.' }),
});
const noVersion = 'No version with this name';

export const listVersionsSchema = adminRoute({
  operationId: 'versions.list',
  summary: 'List versions with their lifecycle and usage',
  tags: ['versions'],
  response: {
    200: Type.Object(
      { data: Type.Array(versionDetail, { maxItems: 1000 }) },
      { description: 'Every version, oldest first' },
    ),
  },
});

export const getVersionSchema = adminRoute({
  operationId: 'versions.get',
  summary: 'Get a version with its lifecycle and usage',
  tags: ['versions'],
  params: versionParams,
  response: { 200: versionDetail, 404: noVersion },
});

export const scheduleDeprecationSchema = adminRoute({
  operationId: 'versions.scheduleDeprecation',
  summary: 'Deprecate a version, or reschedule its deprecation',
  tags: ['versions'],
  description:
    'Sets the deprecation and sunset of a version, checked against the lifecycle policy (notice period, replacement, spacing of breaking changes). ' +
    'On a version already deprecated this reschedules it: its deprecation date is kept unless given, a later sunset is always allowed, and an earlier one must still give the full notice from now (unless reason is critical-fix). ' +
    'Fields left out keep their values: a body with only extendedAccessUntil or closedToNewClientsAt moves no date; noticeMonths alone announces the deprecation anew from now.',
  params: versionParams,
  body: Type.Object(
    {
      noticeMonths: Type.Optional(
        Type.Integer({
          format: 'int32',
          minimum: 1,
          maximum: 120,
          description:
            'Months (of 30 days) from the deprecation to the sunset; default 6, or the current sunset kept when rescheduling.',
        }),
      ),
      deprecatedAt: Type.Optional(
        instantInput('ISO 8601 instant; default now, or the current deprecation date when rescheduling.'),
      ),
      sunsetAt,
      reason,
      migrationUrl,
      ...deprecationDates((description) => nullable(instantInput(description)), {
        extendedAccessUntil:
          'ISO 8601 instant after the sunset: the cap on per-client extended access (`POST /admin/v1/extended-access-grants`); without it no extended access can be granted. Absent: kept; null: unset.',
        closedToNewClientsAt:
          'ISO 8601 instant, not in the past nor before the deprecation: from then on, clients that had not called it before get a 403. Absent: kept; null: unset.',
      }),
    },
    { additionalProperties: false },
  ),
  response: {
    200: versionDetail,
    400: 'The body is invalid, or the schedule breaks the lifecycle policy',
    404: noVersion,
    409: 'The version has no replacement to migrate to',
  },
});

export const listCallsSchema = adminRoute({
  operationId: 'versions.listCalls',
  summary: 'List recorded calls to a deprecated version',
  description:
    'The recorded calls, newest first. `clientId` filters them by the calling client: it names another resource to filter by, not the resource listed (`x-lint-skip`).',
  tags: ['versions'],
  'x-lint-skip': ['identifier-in-query'],
  params: versionParams,
  querystring: Type.Object(
    {
      clientId: Type.Optional(Type.String({ maxLength: 200, description: "Only this client's calls." })),
      limit: pageLimit(),
      cursor: cursor('From `meta.nextCursor`.'),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object(
      {
        data: Type.Array(
          Type.Object({
            version: versionName,
            endpoint: Type.String({
              maxLength: 400,
              description: 'Method and path template, for example `GET /users/{id}`.',
            }),
            clientId: Type.String({ maxLength: 200 }),
            at: instant('When the call was made.'),
          }),
          { maxItems: 100 },
        ),
        meta: pageMeta,
      },
      { description: 'A page of calls, oldest first' },
    ),
    400: 'An invalid query parameter',
    404: noVersion,
  },
});

export const deprecateEndpointSchema = adminRoute({
  operationId: 'deprecations.create',
  summary: 'Deprecate one endpoint of a version',
  tags: ['deprecations'],
  description:
    'Deprecates one operation while the rest of its version stays active; its responses then carry the deprecation headers.',
  body: Type.Object(
    {
      version: Type.String({ maxLength: 20 }),
      method: Type.String({ maxLength: 10 }),
      path: Type.String({ maxLength: 300, description: 'The path template, for example `/users/{id}`.' }),
      noticeMonths: Type.Optional(Type.Integer({ format: 'int32', minimum: 1, maximum: 120 })),
      sunsetAt,
      reason,
      migrationUrl,
      ...deprecationDates(instantInput, {
        extendedAccessUntil:
          'ISO 8601 instant after the sunset: the cap on per-client extended access (`POST /admin/v1/extended-access-grants`); without it no extended access can be granted.',
        closedToNewClientsAt: 'ISO 8601 instant: from then on, clients that had not called it before get a 403.',
      }),
    },
    { additionalProperties: false },
  ),
  response: {
    201: Type.Object(
      {
        version: Type.String({ maxLength: 20 }),
        method: Type.String({ maxLength: 10 }),
        path: Type.String({ maxLength: 300 }),
        deprecatedAt: instant('Now.'),
        sunsetAt: instant('When the endpoint is removed.'),
        migrationUrl: nullable(Type.String({ maxLength: 2000 })),
        ...deprecationDates(instant, {
          extendedAccessUntil: 'The cap on per-client extended access.',
          closedToNewClientsAt: 'When it closes to new clients.',
        }),
      },
      { description: 'Deprecated' },
    ),
    400: 'The body is invalid, or the schedule breaks the lifecycle policy',
    404: 'The version has no such endpoint',
  },
});
