import { Type, type Static } from '@sinclair/typebox';
import { createSchemaValidator } from '../../core/config/index.ts';
import { unknownKey } from '../../core/text/index.ts';

/** A header name (RFC 9110 token), as the gateway's `clientHeader` and `identify.header` take it. */
const headerNamePattern = "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$";
const HeaderName = Type.String({ pattern: headerNamePattern, errorText: 'must be a header name' });

const origin = (example: string) =>
  Type.String({ pattern: '^https?://[^/\\s?#]+/?$', errorText: `must be an origin such as "${example}"` });

/**
 * A version: forwarded to its `upstream` with its `openapi` document, or served from a newer one
 * (`derivedFrom`) by a change file (`changes`). One object, so each member's mistake is named on
 * its own; which pair a version holds is checked in code (`parseGatewaySettings`).
 */
const GatewayVersionSchema = Type.Object(
  {
    upstream: Type.Optional(origin('http://127.0.0.1:9001')),
    openapi: Type.Optional(
      Type.String({
        minLength: 1,
        errorText: "must be the path of the version's OpenAPI document (JSON or YAML)",
      }),
    ),
    derivedFrom: Type.Optional(
      Type.String({ pattern: '^v[1-9][0-9]{0,5}$', errorText: 'must name a newer version such as "v2"' }),
    ),
    changes: Type.Optional(
      Type.String({
        minLength: 1,
        errorText: 'must be the path of the change file (JSON, YAML, or a JavaScript module)',
      }),
    ),
    // Paths the document does not declare are forwarded too, judged by the version's rules alone
    // (docs/gateway.md lists the endpoint rules that cannot apply to them); by default a 404.
    forwardUndocumented: Type.Optional(Type.Boolean({ errorText: 'must be true or false' })),
  },
  {
    additionalProperties: false,
    errorText: 'must be { upstream, openapi, forwardUndocumented? } or { derivedFrom, changes }',
  },
);

const identifyText =
  'must be one of { "apiKeys": true }, { "header": "x-client-id" } or { "jwt": true } (or { "jwt": { "claim": "sub" } })';

/**
 * The `gateway` section of the config file (`docs/gateway.md`), as a TypeBox schema: its type and
 * its validation, every mistake at once. That `versions` names at least one version is code.
 */
const GatewaySectionSchema = Type.Object(
  {
    prefix: Type.Optional(
      Type.String({ pattern: '^(/[A-Za-z0-9._~-]+)+$', errorText: 'must be a path such as "/api"' }),
    ),
    vendor: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$', errorText: 'must be a media-type token such as "acme"' }),
    ),
    title: Type.Optional(Type.String({ minLength: 1, errorText: 'must be a non-empty string' })),
    versions: Type.Optional(
      Type.Record(Type.String(), GatewayVersionSchema, {
        propertyNames: { pattern: '^v[1-9][0-9]{0,5}$', errorText: 'is not a version name such as v1' },
      }),
    ),
    identify: Type.Optional(
      Type.Union(
        [
          Type.Object({ apiKeys: Type.Literal(true) }, { additionalProperties: false }),
          Type.Object({ header: HeaderName }, { additionalProperties: false }),
          Type.Object(
            {
              jwt: Type.Union([
                Type.Literal(true),
                Type.Object(
                  { claim: Type.Union([Type.Literal('client_id'), Type.Literal('sub')]) },
                  { additionalProperties: false },
                ),
              ]),
            },
            { additionalProperties: false },
          ),
        ],
        { errorText: identifyText },
      ),
    ),
    clientHeader: Type.Optional(HeaderName),
    timeoutMs: Type.Optional(
      Type.Integer({ minimum: 100, maximum: 3_600_000, errorText: 'must be an integer from 100 to 3600000' }),
    ),
    underscoresInHeaders: Type.Optional(Type.Boolean({ errorText: 'must be true or false' })),
    forwardedHeaders: Type.Optional(
      Type.Union([Type.Literal('x-forwarded'), Type.Literal('forwarded'), Type.Literal('both')], {
        errorText: 'must be "x-forwarded", "forwarded" or "both"',
      }),
    ),
    nginx: Type.Optional(
      Type.Object(
        {
          out: Type.String({ minLength: 1, errorText: 'must be the directory of the rendered nginx files' }),
          reload: Type.Optional(
            Type.Array(Type.String({ minLength: 1 }), {
              minItems: 1,
              errorText: 'must be a command and its arguments, such as ["nginx", "-s", "reload"]',
            }),
          ),
          listen: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 65535, errorText: 'must be a port from 1 to 65535' }),
          ),
          control: Type.Optional(origin('http://127.0.0.1:3000')),
          // The shared memory of the usage counters nginx sends each second (`lua_shared_dict`, default `8m`).
          usageMemory: Type.Optional(
            Type.String({
              pattern: '^[1-9][0-9]{0,6}[km]$',
              errorText: 'must be a size in nginx\'s syntax, such as "8m" or "512k"',
            }),
          ),
          // The shared secret of nginx and its control plane (default `<out>/private/secret`).
          secretFile: Type.Optional(Type.String({ minLength: 1, errorText: 'must be a file path' })),
          authCacheSeconds: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 3600, errorText: 'must be an integer from 1 to 3600' }),
          ),
        },
        {
          additionalProperties: false,
          errorText: 'must be { out, reload?, listen?, control?, usageMemory?, secretFile?, authCacheSeconds? }',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The `gateway` section as written, once its schema passes. */
export type GatewaySection = Static<typeof GatewaySectionSchema>;

/** The validator of the `gateway` section: unknown keys read as every other level of the config file. */
export const gatewaySectionValidator = createSchemaValidator(GatewaySectionSchema, {
  unknownKey: ({ where, key, known }) => unknownKey(where, key, known),
});
