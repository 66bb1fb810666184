import type { FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import type { JwtVerifier } from '../auth/jwt.ts';
import type { AppIdentity } from '../auth/principal.ts';
import type { GatewaySettings } from './settings.ts';

/**
 * Who calls the proxied API, for `identify: { header }` and `identify: { jwt }`: the client
 * named by the trusted header, or by the verified token's claim, with the roles to call the API
 * (`read` and `write`, never `admin`). Outside the API, and with a Versionary key, it says nothing,
 * so the management API and the portal keep their own credentials. `apiKeys` needs none of this.
 */
export function createGatewayIdentify(options: {
  settings: GatewaySettings;
  jwt?: JwtVerifier;
}): ((request: FastifyRequest) => Promise<AppIdentity | undefined>) | undefined {
  const { settings, jwt } = options;
  const { identify } = settings;
  if (identify.kind === 'apiKeys') return undefined;
  const base = `${settings.prefix}/`;
  const roles = ['read', 'write'] as const;
  return async (request) => {
    if (!request.url.startsWith(base)) return undefined;
    if (identify.kind === 'header') {
      const value = request.headers[identify.header];
      return typeof value === 'string' && value.length > 0 && value.length <= 200
        ? { clientId: value, roles }
        : undefined;
    }
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!token || token.startsWith('vk_') || !jwt) return undefined;
    let principal;
    try {
      principal = await jwt(token);
    } catch (error) {
      throw new VersionaryError({
        code: ErrorCode.Unauthenticated,
        detail: `The bearer token was refused: ${(error as Error).message}.`,
        headers: { 'www-authenticate': 'Bearer realm="versionary", error="invalid_token"' },
      });
    }
    const subject = principal.id.slice('jwt:'.length);
    return {
      clientId: identify.claim === 'client_id' ? (principal.clientId ?? subject) : subject,
      roles,
      id: principal.id,
    };
  };
}
