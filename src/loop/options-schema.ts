import { Type, type Static } from '@sinclair/typebox';
import { accessOptionsSchema } from './access/options.ts';
import { bool, fn, optionsValidator, text } from './host/option-schemas.ts';
import { lifecycleOptionsSchema } from './lifecycle/options.ts';
import { noticesOptionsSchema } from './notices/options.ts';

const Bool = bool();
const Text = text();
// The seams of a host app (the reference service, the gateway), checked by TypeScript: typed
// objects handed over in code, not settings a user writes.
const host = Type.Optional(Type.Object({}, { errorText: 'must be an object' }));

/**
 * The loop's options, as `versionaryLoop` takes them: the storage part's (what the API is, where
 * the loop keeps its state, the settings), each other part's, and the preset's switches. The
 * storage part takes the same object, so that one check at its registration reports every error
 * of the options with those of the settings. `settings` is checked by the settings' own schemas.
 */
const LoopOptionsSchema = Type.Object(
  {
    bundle: Type.Object(
      { versions: Type.Array(Type.Unknown()), head: Type.Unknown() },
      { errorText: 'must be a bundle from defineVersions()' },
    ),
    vendor: Type.String({
      pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$',
      errorText: 'must be a media-type token such as "books"',
    }),
    title: Text,
    description: Type.Optional(Text),
    openapiVersion: Type.Optional(
      Type.Union([Type.Literal('3.1'), Type.Literal('3.2')], { errorText: 'must be "3.1" or "3.2"' }),
    ),
    license: Type.Optional(
      Type.Object(
        { name: Text, identifier: Type.Optional(Text), url: Type.Optional(Text) },
        { additionalProperties: false, errorText: 'must be { name, identifier? } or { name, url? }' },
      ),
    ),
    contact: Type.Optional(
      Type.Object(
        { name: Type.Optional(Text), url: Type.Optional(Text), email: Type.Optional(Text) },
        { additionalProperties: false, errorText: 'must be { name?, url?, email? }' },
      ),
    ),
    prefix: Type.Optional(
      Type.String({
        pattern: '^(/[A-Za-z0-9._~-]+)+$',
        errorText: 'must be a path such as "/api", starting with "/" and not ending with one',
      }),
    ),
    database: Type.Optional(
      Type.String({
        pattern: '^(sqlite:|postgres(ql)?://)',
        errorText: 'must be sqlite:<path>, sqlite::memory: or postgres://…',
      }),
    ),
    env: Type.Optional(Type.Object({}, { errorText: 'must be an object of variables (process.env, or your own)' })),
    adminKey: Type.Optional(Type.String({ minLength: 16, errorText: 'must be a key of at least 16 characters' })),
    smtp: Type.Optional(
      Type.Object(
        {
          url: Type.String({
            pattern: '^(smtps?://[^/\\s]+|log:)',
            errorText: 'must be smtp://host:port, smtps://… or log:',
          }),
          from: Text,
        },
        { additionalProperties: false, errorText: 'must be { url, from }' },
      ),
    ),
    jwt: Type.Optional(
      Type.Object({}, { errorText: 'must be { secret } or { publicKeyPem } or { jwks }, with issuer? and audience?' }),
    ),
    redisUrl: Type.Optional(Type.String({ pattern: '^rediss?://', errorText: 'must be redis://host:port' })),
    noticeSecret: Type.Optional(Type.String({ minLength: 32, errorText: 'must be at least 32 characters' })),
    portalSecret: Type.Optional(Type.String({ minLength: 32, errorText: 'must be at least 32 characters' })),
    settings: Type.Optional(Type.Object({}, { errorText: 'must be an object' })),
    publicUrl: Type.Optional(Type.String({ pattern: '^https?://', errorText: 'must be an absolute http(s) URL' })),
    clock: Type.Optional(
      Type.Object({ now: fn() }, { errorText: 'must have a now() method returning epoch milliseconds' }),
    ),
    host,
    ...lifecycleOptionsSchema.properties,
    ...accessOptionsSchema.properties,
    ...noticesOptionsSchema.properties,
    recordUsage: Type.Optional(Bool),
    portal: Type.Optional(Bool),
    notices: Type.Optional(Bool),
    mcp: Type.Optional(Bool),
  },
  { additionalProperties: false },
);

/** The check of the loop's options as one object, with every part's: the preset hands it to the storage part. */
export const loopOptionsValidator = optionsValidator(LoopOptionsSchema);

/** The keys the schema takes, for the compile-time check that the documented option types take the same. */
export type LoopOptionKeys = keyof Static<typeof LoopOptionsSchema>;
