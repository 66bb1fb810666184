import { Type, type TSchema } from '@sinclair/typebox';

/** RFC 9457 problem body, as every error of the management API answers. */
export const ProblemSchema = Type.Object({
  type: Type.String(), title: Type.String(), status: Type.Integer(), detail: Type.String(),
  instance: Type.Optional(Type.String()), code: Type.Optional(Type.String({ description: 'Stable Versionary error code.' })),
  errors: Type.Optional(Type.Array(Type.Object({ pointer: Type.String(), detail: Type.String() }))),
}, { additionalProperties: true, description: 'Problem details (RFC 9457).' });

/**
 * The problem responses of an admin route, by status, beside its success responses.
 *
 * @example
 * ```ts
 * response: { 200: ClientSchema, ...problems(400, 404) }
 * ```
 */
export function problems(...statuses: number[]): Record<number, TSchema> {
  // Every admin route can answer these: no or bad credentials, not an admin, too many requests.
  const all = new Set([...statuses, 401, 403, 429]);
  return Object.fromEntries([...all].map((status) => [status, ProblemSchema]));
}

const email = Type.String({ format: 'email', minLength: 3, maxLength: 254, description: 'An email address; stored in lower case.' });
const url = Type.String({ minLength: 1, maxLength: 2000, description: 'http or https URL whose host resolves to public addresses.' });

/** A contact as given: the address alone, or with its subscription. */
export const ContactInput = Type.Union([email, Type.Object({ email, subscribed: Type.Optional(Type.Boolean()) }, { additionalProperties: false })]);

/** A webhook as given: a new one (`url`), or an existing one kept (`id`, optionally with a new `url`). */
export const WebhookInput = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 40, description: 'An existing webhook to keep, with its secret.' })),
  url: Type.Optional(url),
}, { additionalProperties: false, minProperties: 1 });

/** `POST /admin/v1/clients`. */
export const CreateClientBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  contacts: Type.Optional(Type.Array(ContactInput, { maxItems: 50 })),
  webhooks: Type.Optional(Type.Array(Type.Object({ url }, { additionalProperties: false }), { maxItems: 10 })),
}, { additionalProperties: false });

/** `PATCH /admin/v1/clients/{id}`: each given member replaces the stored one. */
export const UpdateClientBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  contacts: Type.Optional(Type.Array(ContactInput, { maxItems: 50 })),
  webhooks: Type.Optional(Type.Array(WebhookInput, { maxItems: 10 })),
}, { additionalProperties: false, minProperties: 1 });

/** A contact as answered. */
export const ContactSchema = Type.Object({ email: Type.String(), subscribed: Type.Boolean() });

/** A webhook as answered: `secret` only in the response that created it. */
export const WebhookSchema = Type.Object({
  id: Type.String(), url: Type.String(),
  secret: Type.Optional(Type.String({ description: 'Standard Webhooks signing secret (whsec_…), shown only when the webhook is created.' })),
});

/** A client as answered. */
export const ClientSchema = Type.Object({
  id: Type.String({ description: 'cl_ and 16 hex digits.' }), name: Type.String(),
  contacts: Type.Array(ContactSchema), webhooks: Type.Array(WebhookSchema),
  createdAt: Type.String({ format: 'date-time' }), updatedAt: Type.String({ format: 'date-time' }),
});

/** A page of clients. */
export const ClientListSchema = Type.Object({
  data: Type.Array(ClientSchema),
  meta: Type.Object({ limit: Type.Integer(), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
});

/** `{id}` of a client route. */
export const ClientParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** `?limit=&cursor=` of a list. */
export const PageQuery = Type.Object({
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ maxLength: 300, description: 'meta.nextCursor of the previous page.' })),
}, { additionalProperties: false });
