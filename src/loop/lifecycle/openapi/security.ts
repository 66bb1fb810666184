export type DocumentedRole = 'read' | 'write' | 'admin';

/** The credentials the service accepts: an API key (bearer or `X-API-Key`), and a JWT when configured. */
export function securitySchemes(options: {
  /** Whether this deployment verifies JWTs (a secret, a public key or a JWKS is configured). */
  jwt: boolean;
}): Record<string, unknown> {
  return {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'vk_<key>',
      description:
        'An API key (`vk_...`) as `Authorization: Bearer <key>`. Keys carry roles: `read` for safe methods, `write` for changes, `admin` for the management API (admin includes read and write).',
    },
    apiKeyHeader: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'The same API key in the `X-API-Key` header, for clients that cannot set `Authorization`.',
    },
    ...(options.jwt
      ? {
          jwt: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'A signed JWT as `Authorization: Bearer <token>`, verified as RFC8725 recommends: only the configured algorithms (never `none`), a valid signature, `exp`/`nbf` checked; the roles come from the `scope` claim.',
          },
        }
      : {}),
  };
}

/**
 * The security members of an operation that needs `role`: any one of the schemes, and the role
 * in `x-required-role`. The requirements name no role: OpenAPI 3.1 allows role names there for
 * non-OAuth schemes, but no scheme can declare them (only OAuth flows have scopes), so linters
 * (Spectral's `oas3-operation-security-defined`) and generators read them as undefined scopes.
 */
export function securityFor(options: { role: DocumentedRole; jwt: boolean }): {
  security: Array<Record<string, string[]>>;
  'x-required-role': DocumentedRole;
} {
  return {
    security: [{ apiKey: [] }, { apiKeyHeader: [] }, ...(options.jwt ? [{ jwt: [] }] : [])],
    'x-required-role': options.role,
  };
}
