import type { JsonSchema } from './types.ts';

const text = (maxLength: number, description: string) => ({ type: 'string', maxLength, description });
const instant = (description: string) => ({
  description: `${description} An ISO 8601 instant; in a policy violation, milliseconds since the epoch.`,
  anyOf: [
    { type: 'string', format: 'date-time', maxLength: 40 },
    { type: 'integer', format: 'int64', minimum: -8_640_000_000_000_000, maximum: 8_640_000_000_000_000 },
  ],
});
const days = (description: string) => ({ type: 'number', minimum: -1_000_000, maximum: 1_000_000, description });
const strings = (maxItems: number, maxLength: number, description: string) => ({
  type: 'array',
  maxItems,
  items: { type: 'string', maxLength },
  description,
});
const textOrNull = (maxLength: number, description: string) => ({ type: ['string', 'null'], maxLength, description });

/**
 * The extension members the service's problems carry, each on the problems named in its
 * description. Listed (all optional) so that a type generated from a document can read them:
 * RFC 9457 allows any member, but one no schema names is invisible to a typed client.
 */
const extensionMembers: Record<string, JsonSchema> = {
  requestId: text(
    200,
    "The request's id, as in the service's logs: quote it when reporting a problem. On every problem.",
  ),
  supportedVersions: strings(
    1000,
    100,
    'The versions this API serves: on a missing, unknown or contradicting version (400, 404, 406).',
  ),
  knownFields: strings(1000, 200, 'The fields `fields` may name: on a 400 for an unknown field.'),
  requiredRole: {
    type: 'string',
    enum: ['read', 'write', 'admin'],
    description: 'The role the operation needs: on a 403.',
  },
  rule: text(
    100,
    'The lifecycle policy rule a change breaks (`notice-period`, `sunset-order`, ...): on a policy violation.',
  ),
  version: text(100, 'The version the problem is about: on a policy violation or a removed version.'),
  audience: text(50, "The API's audience, which sets the minimum notice: on a notice-period violation."),
  requiredDays: days('The days of notice the audience needs: on a notice-period violation.'),
  givenDays: days('The days of notice the schedule gives: on a notice-period violation.'),
  noticeStart: instant('When the notice started: on a notice-period violation.'),
  deprecatedAt: instant('The deprecation date: on a sunset-order violation.'),
  sunsetAt: instant('The sunset date: on a removed version or endpoint, or a policy violation.'),
  reason: text(100, 'Why the schedule is what it is (`critical-fix`, ...): on a policy violation.'),
  noticeMonths: days('The notice asked for, in months: on a notice that cannot be scheduled.'),
  state: text(50, 'The lifecycle state of the subject: on a transition that state does not allow.'),
  event: text(50, 'The lifecycle event that was refused: on a transition the state does not allow.'),
  allowed: strings(20, 50, 'The events the state allows: on a refused transition.'),
  field: text(200, 'The input that is wrong: on an invalid setting.'),
  value: { description: 'The value given for `field`: on an invalid setting.' },
  violations: {
    type: 'array',
    maxItems: 100,
    items: { type: 'object', description: 'One violation: its `code`, `detail` and extension members.' },
    description: 'Every violation, when a change breaks more than one rule.',
  },
  replacement: textOrNull(200, 'What replaces a removed or closed version or endpoint.'),
  migrationGuide: text(2000, 'Where the migration guide is: on a removed, browned-out or closed version or endpoint.'),
  removalAt: textOrNull(40, 'When a browned-out version or endpoint will be removed: on a brownout.'),
  closedToNewClientsAt: text(40, 'Since when a version or endpoint refuses new clients.'),
  elements: {
    type: 'array',
    maxItems: 100,
    description:
      'The deprecated fields or query parameters past their sunset that the request used: on `ELEMENT_REMOVED`.',
    items: {
      type: 'object',
      properties: {
        element: { type: 'string', maxLength: 300 },
        version: { type: 'string', maxLength: 100 },
        sunsetAt: { type: 'string', maxLength: 40 },
        replacement: { type: ['string', 'null'], maxLength: 300 },
        migrationGuide: { type: 'string', maxLength: 2000 },
      },
    },
  },
  brownout: {
    type: 'object',
    description: 'The brownout that answered: on a 410 (or 404) during one.',
    properties: {
      id: { type: 'string', maxLength: 100 },
      startsAt: { type: 'string', maxLength: 40 },
      endsAt: { type: 'string', maxLength: 40 },
      rehearsal: { type: 'boolean' },
    },
  },
};

/**
 * The RFC 9457 problem details schema every error response uses, with the extension members the
 * service's problems carry (all optional); the bounds hold for every problem the service writes
 * (validation lists at most 20 errors, `fields` names at most a thousand).
 */
export const problemSchema: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: {
      type: 'string',
      format: 'uri-reference',
      maxLength: 2000,
      description: 'URI reference identifying the problem type.',
    },
    title: { type: 'string', maxLength: 200 },
    status: { type: 'integer', format: 'int32', minimum: 100, maximum: 599 },
    detail: { type: 'string', maxLength: 100_000 },
    instance: { type: 'string', maxLength: 100_000, description: 'The path of the request, as the client sent it.' },
    code: { type: 'string', pattern: '^[A-Z_]+$', maxLength: 60, description: 'Stable Versionary error code.' },
    errors: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        properties: {
          pointer: {
            type: 'string',
            maxLength: 2000,
            description: 'Where the error is: `/body/...`, `/query/...` or `/headers/...`.',
          },
          detail: { type: 'string', maxLength: 2000 },
        },
      },
    },
    ...extensionMembers,
  },
};
