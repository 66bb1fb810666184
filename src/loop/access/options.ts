import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppIdentity, Role } from '../../kernel/ports/principal.ts';
import { bool, fn, typedAs } from '../host/option-schemas.ts';

/** The access part's options, checked at registration; their type is {@link LoopAccessOptions}. */
export const accessOptionsSchema = Type.Object(
  {
    /** Told the first admin key, once, when the first start creates it (no `VERSIONARY_ADMIN_KEY`). */
    onBootstrapKey: Type.Optional(fn<(key: string) => void>()),
    /**
     * Your own authentication, asked first on every request: return the client the call comes from
     * and its roles (`read`, `write`, `admin`), or `undefined` to fall back to Versionary's API keys
     * and JWTs. Usage, notices, rate limits and the management API's roles follow the identity.
     */
    identify:
      Type.Optional(fn<(request: FastifyRequest) => AppIdentity | undefined | Promise<AppIdentity | undefined>>()),
    /** The roles a JWT's `scope` may grant (all three by default); the gateway's tokens never grant `admin`. */
    jwtRoles: Type.Optional(
      typedAs<readonly Role[]>(
        Type.Array(Type.Union([Type.Literal('read'), Type.Literal('write'), Type.Literal('admin')]), {
          errorText: 'must be an array of read, write and admin',
        }),
      ),
    ),
    /** Replay `Idempotency-Key` writes (default true); off in the gateway, where the upstream owns its writes. */
    idempotency: Type.Optional(bool()),
  },
  { additionalProperties: false },
);

/**
 * Options of the access part.
 *
 * @example
 * ```ts
 * const options: LoopAccessOptions = { identify: (request) => (request.headers['x-team'] ? { clientId: 'team', roles: ['read'] } : undefined) };
 * ```
 */
export type LoopAccessOptions = Static<typeof accessOptionsSchema>;
