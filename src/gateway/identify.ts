import type { FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { createApiScope } from '../http/api-scope.ts';
import { routeUrlOf } from '../http/route-url.ts';
import type { JwtVerifier } from '../loop/access/auth/jwt.ts';
import type { AppIdentity } from '../kernel/ports/principal.ts';
import type { GatewaySettings } from '../kernel/config/gateway-settings.ts';

/**
 * Who calls the proxied API for `identify: { header }` or `{ jwt }`, with `read` and `write`
 * (never `admin`). Outside the API, and for a Versionary key, it says nothing: the management API
 * and the portal keep their own credentials.
 */
export function createGatewayIdentify(options: {
  settings: GatewaySettings;
  jwt?: JwtVerifier;
}): ((request: FastifyRequest) => Promise<AppIdentity | undefined>) | undefined {
  const { settings, jwt } = options;
  const { identify } = settings;
  if (identify.kind === 'apiKeys') return undefined;
  const scope = createApiScope(settings.prefix);
  const roles = ['read', 'write'] as const;
  return async (request) => {
    // The routed path, as the rate limit and roles read it: a spelling such as `%61pi` is the API too.
    if (!scope.isApi(routeUrlOf(request) ?? request.url)) return undefined;
    if (identify.kind === 'header') {
      const value = request.headers[identify.header];
      if (typeof value !== 'string' || value.length === 0) return undefined;
      if (!sendable(value))
        throw new VersionaryError({
          code: ErrorCode.MalformedRequest,
          detail: `The ${identify.header} header must be 1 to 200 visible ASCII characters.`,
        });
      return { clientId: value, roles };
    }
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!token || token.startsWith('vk_') || !jwt) return undefined;
    let principal;
    try {
      principal = await jwt(token);
    } catch (error) {
      throw invalidToken(`The bearer token was refused: ${(error as Error).message}.`);
    }
    const subject = principal.id.slice('jwt:'.length);
    const clientId = identify.claim === 'client_id' ? (principal.clientId ?? subject) : subject;
    // The client id goes upstream in a header: a claim that cannot be one is the token's fault.
    if (!sendable(clientId)) {
      const claim = identify.claim === 'client_id' && principal.clientId ? 'client_id' : 'sub';
      throw invalidToken(`The bearer token's ${claim} claim must be 1 to 200 visible ASCII characters.`);
    }
    return { clientId, roles, id: principal.id };
  };
}

function invalidToken(detail: string): VersionaryError {
  const headers = { 'www-authenticate': 'Bearer realm="versionary", error="invalid_token"' };
  return new VersionaryError({ code: ErrorCode.Unauthenticated, detail, headers });
}

/** A value that can travel as a header value unchanged: visible ASCII, inner spaces allowed. */
function sendable(value: string): boolean {
  return value.length <= 200 && /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value);
}
