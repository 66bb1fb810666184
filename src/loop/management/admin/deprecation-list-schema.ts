import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { problem } from '../../host/admin-route-schemas.ts';
import { deprecationDates } from './admin-schemas.ts';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const instant = (description: string) => Type.String({ format: 'date-time', maxLength: 40, description });
const count = (description: string) =>
  Type.Integer({ format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });

const deprecation = Type.Object(
  {
    kind: Type.Union(
      ['version', 'endpoint', 'field', 'parameter'].map((k) => Type.Literal(k)),
      {
        description:
          'What is deprecated: a whole version, one endpoint of a version, a field of a schema, or a query parameter of an operation.',
      },
    ),
    name: Type.String({
      maxLength: 400,
      description: 'How it is shown and counted: `v1`, `GET /users/{id} in v2`, `User.nickname`, `GET /users?order`.',
    }),
    version: Type.String({ maxLength: 40, description: 'The version it belongs to.' }),
    deprecatedAt: instant('When it was deprecated.'),
    sunsetAt: instant('When it is (or was) removed.'),
    ...deprecationDates(instant, {
      extendedAccessUntil:
        'The cap on per-client extended access after the sunset (`POST /admin/v1/extended-access-grants`); absent when unset.',
      closedToNewClientsAt: 'From then on, clients that had not called it before get a 403; absent when unset.',
    }),
    replacement: nullable(
      Type.String({
        maxLength: 400,
        description:
          'What takes its place: a version, or the field or parameter (`User.displayName`); null when none is named.',
      }),
    ),
    migrationUrl: nullable(Type.String({ maxLength: 2000, description: 'The migration guide, when there is one.' })),
    usage: Type.Object(
      {
        calls: count('Calls recorded that used it (for a version: calls to it while deprecated).'),
        clients: count('Distinct clients among them.'),
        endpoints: count('Distinct endpoints among them.'),
        lastCall: nullable(instant('The latest of them; null when none was recorded.')),
      },
      { description: 'Every call recorded that used it, from the usage rollups.' },
    ),
  },
  { description: 'One deprecated version, endpoint, field or query parameter, with its usage' },
);

/** One entry of `GET /admin/v1/deprecations`, as its schema says it. */
export type DeprecationListEntry = Static<typeof deprecation>;

/** `GET /admin/v1/deprecations`. */
export const listDeprecationsSchema = {
  operationId: 'deprecations.list',
  querystring: Type.Object({}, { additionalProperties: false }),
  summary: 'List everything deprecated, with its usage',
  tags: ['deprecations'],
  description:
    'Every deprecated version, endpoint, field and query parameter, with its dates, its replacement and the calls recorded that used it: who still depends on what, before its sunset.',
  response: {
    200: Type.Object(
      { data: Type.Array(deprecation, { maxItems: 10_000 }) },
      { description: 'Versions (oldest first), then endpoints, then fields and parameters as configured' },
    ),
    400: problem('An unknown query parameter'),
  },
};
