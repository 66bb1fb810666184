import { Type } from '@sinclair/typebox';
import { createSchemaValidator } from '../../core/config/index.ts';
import { nearestName } from '../../core/text/index.ts';

// JSON Schema has no type for a function: `isFunction` is the validator's keyword for one.
const Fn = Type.Unsafe<unknown>({ isFunction: true, errorText: 'must be a function' });
const Bool = Type.Boolean({ errorText: 'must be a boolean' });

/** What of the plugin's options a schema can check; the rest needs the bundle (`resolvePluginOptions`). */
const PluginOptionsSchema = Type.Object(
  {
    bundle: Type.Optional(Type.Unknown()),
    handlers: Type.Optional(Type.Unknown()),
    forward: Type.Optional(Type.Unknown()),
    lifecycle: Type.Optional(Type.Unknown()),
    vendor: Type.String({
      pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$',
      errorText: 'must be a media-type token such as "acme"',
    }),
    prefix: Type.Optional(
      Type.String({
        pattern: '^(/[A-Za-z0-9._~-]+)+$',
        errorText: 'must be a path such as "/api", starting with "/" and not ending with one',
      }),
    ),
    clock: Type.Optional(
      Type.Object({ now: Fn }, { errorText: 'must have a now() method returning epoch milliseconds' }),
    ),
    onUsage: Type.Optional(Fn),
    onCall: Type.Optional(Fn),
    clientIdOf: Type.Optional(Fn),
    clientOf: Type.Optional(Fn),
    openapi: Type.Optional(
      Type.Union(
        [
          Type.Literal(false),
          Type.Object({
            title: Type.String(),
            document: Type.Optional(Fn),
            openapiVersion: Type.Optional(Type.Union([Type.Literal('3.1'), Type.Literal('3.2')])),
          }),
        ],
        { errorText: "must be { title: string, document?: function, openapiVersion?: '3.1' | '3.2' } or false" },
      ),
    ),
    versionsDocument: Type.Optional(Bool),
    problems: Type.Optional(Bool),
    notFound: Type.Optional(Bool),
    versionListHeaders: Type.Optional(
      Type.Union([Type.Boolean(), Type.Literal('api')], { errorText: "must be a boolean or 'api'" }),
    ),
    onVersionedRequest: Type.Optional(Type.Array(Fn, { errorText: 'must be an array of functions' })),
    validateResponses: Type.Optional(Bool),
  },
  { additionalProperties: false },
);

/** Every problem of the plugin's options that the schema can tell, each naming its option. */
export const pluginOptionsValidator = createSchemaValidator(PluginOptionsSchema, {
  unknownKey: ({ key, known }) => {
    const near = nearestName(key, known);
    return `unknown option(s): ${key}${near ? `; did you mean ${near}?` : ''}`;
  },
});
