import { Type, type Static } from '@sinclair/typebox';
import { singleLineText } from '../admin/admin-schemas.ts';
import { idParams, instant, nullable, pageLimit } from '../../host/admin-route-schemas.ts';
import { emailPattern, emailRule } from '../../../core/text/email.ts';

const email = Type.String({
  pattern: emailPattern,
  minLength: 3,
  maxLength: 254,
  description: `${emailRule} Stored in lower case.`,
});
const url = Type.String({
  format: 'uri',
  minLength: 1,
  maxLength: 2000,
  description: 'http or https URL whose host resolves to public addresses.',
});
const clientName = singleLineText({
  maxLength: 200,
  description: 'A name for people: one line, no control characters.',
});
const clientId = Type.String({ maxLength: 19, description: 'cl_ and 16 hex digits.' });
const webhookId = Type.String({ maxLength: 40, description: 'The webhook id.' });

/** A contact as given: the address alone, or with its subscription. */
const ContactInput = Type.Union([
  email,
  Type.Object({ email, subscribed: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
]);

/** A webhook as given: a new one (`url`), or an existing one kept (`id`, optionally with a new `url`). */
const WebhookInput = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 40, description: 'An existing webhook to keep, with its secret.' })),
    url: Type.Optional(url),
  },
  { additionalProperties: false, minProperties: 1 },
);

const contacts = Type.Optional(Type.Array(ContactInput, { maxItems: 50 }));

export const CreateClientBody = Type.Object(
  {
    name: clientName,
    contacts,
    webhooks: Type.Optional(Type.Array(Type.Object({ url }, { additionalProperties: false }), { maxItems: 10 })),
  },
  { additionalProperties: false },
);

/**
 * `PATCH /admin/v1/clients/{id}`: a JSON Merge Patch, each given member replaces the stored one.
 * `minimumVersion` is one of the API's versions (`versions`, oldest first), so the document says
 * exactly which values the server takes.
 */
export function updateClientBody(versions: readonly string[]) {
  const version =
    versions.length > 0
      ? Type.Unsafe<string>({ type: 'string', enum: [...versions], description: 'A version of the API.' })
      : Type.String({ minLength: 1, maxLength: 40, description: 'A version of the API: `v2`.' });
  return Type.Object(
    {
      name: Type.Optional(clientName),
      contacts,
      webhooks: Type.Optional(Type.Array(WebhookInput, { maxItems: 10 })),
      minimumVersion: Type.Optional(
        nullable(
          version,
          'The oldest version this client may call: its calls to older versions answer 410 `VERSION_RETIRED_FOR_CLIENT`. `null` clears it; a version the API does not know is a 400.',
        ),
      ),
    },
    { additionalProperties: false, minProperties: 1 },
  );
}
export type ClientPatch = Static<ReturnType<typeof updateClientBody>>;

const ContactSchema = Type.Object({ email: Type.String({ maxLength: 254 }), subscribed: Type.Boolean() });

/** A webhook as answered: `secret` only in the response that created it. */
const WebhookSchema = Type.Object({
  id: webhookId,
  url: Type.String({ maxLength: 2000 }),
  secret: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Standard Webhooks signing secret (whsec_…), shown only when the webhook is created.',
    }),
  ),
});

export const ClientSchema = Type.Object(
  {
    id: clientId,
    name: Type.String({ maxLength: 200 }),
    contacts: Type.Array(ContactSchema, { maxItems: 50 }),
    webhooks: Type.Array(WebhookSchema, { maxItems: 10 }),
    minimumVersion: nullable(
      Type.String({ maxLength: 40 }),
      'The oldest version this client may call; null when it has none.',
    ),
    createdAt: instant('When the client was created.'),
    updatedAt: instant('When the client last changed.'),
  },
  { description: 'A client' },
);

export const ClientListSchema = Type.Object(
  {
    data: Type.Array(ClientSchema, { maxItems: 100 }),
    meta: Type.Object({
      limit: Type.Integer({ format: 'int32', minimum: 1, maximum: 100 }),
      nextCursor: nullable(
        Type.String({ maxLength: 300, description: 'Pass as `cursor` for the next page.' }),
        'null on the last page.',
      ),
    }),
  },
  { description: 'A page of clients, oldest first' },
);

export const ClientParams = idParams('cl_ and 16 hex digits; any other value names no client (404).');

export const PageQuery = Type.Object(
  {
    limit: pageLimit(),
    cursor: Type.Optional(Type.String({ maxLength: 300, description: 'meta.nextCursor of the previous page.' })),
  },
  { additionalProperties: false },
);
