/** A role a credential must hold, as named in the OpenAPI security requirements. */
export type DocumentedRole = 'read' | 'write' | 'admin';

/** Options for {@link securitySchemes}. */
export interface SecuritySchemesOptions {
  /** Whether this deployment verifies JWTs (a secret, a public key or a JWKS is configured). */
  jwt: boolean;
}

/**
 * The credentials the service accepts, as OpenAPI security schemes: an API key as a bearer token
 * or in `X-API-Key`, and, when configured, a JWT bearer token.
 */
export function securitySchemes(options: SecuritySchemesOptions): Record<string, unknown> {
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
 * The security requirement of an operation that needs `role`: any one of the schemes, each
 * naming the role (OpenAPI 3.1 lets non-OAuth schemes list role names).
 */
export function securityFor(options: { role: DocumentedRole; jwt: boolean }): Array<Record<string, string[]>> {
  const { role } = options;
  return [{ apiKey: [role] }, { apiKeyHeader: [role] }, ...(options.jwt ? [{ jwt: [role] }] : [])];
}
