import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { verifyApiKey } from '../../access/auth/api-keys.ts';
import { principalOf } from '../../../kernel/ports/principal.ts';
import type { DashboardOptions } from './options.ts';
import { cookieName, sessionSeconds, type PortalSession, type SessionCodec } from './session.ts';

/** Who signs in, and who is signed in: the cookie's session, else the app's own identity. */
export interface PortalSessions {
  /**
   * The session of the cookie, if still good: signature and expiry, and the key not revoked since.
   * Without one, the app's own authentication (`identify`) signs the caller in for this request.
   */
  sessionOf(request: FastifyRequest): Promise<PortalSession | undefined>;
  /** The session a key signs in as (the admin key, or a stored API key), or `undefined` for a bad key. */
  signIn(key: string): Promise<Omit<PortalSession, 'sessionId' | 'expiresAt'> | undefined>;
}

export function createPortalSessions(options: DashboardOptions, codec: SessionCodec): PortalSessions {
  const admin = options.adminKey ? createHash('sha256').update(options.adminKey).digest() : undefined;
  return {
    async sessionOf(request) {
      const session = await codec.read(request.cookies[cookieName]);
      if (!session) return appSessionOf(options, request);
      if (session.keyId === 'admin') return admin ? session : undefined;
      const record = await options.storage.apiKeys.find(session.keyId);
      return record && record.revokedAt === null ? session : undefined;
    },
    async signIn(key) {
      if (admin && timingSafeEqual(createHash('sha256').update(key).digest(), admin))
        return { keyId: 'admin', role: 'admin', clientId: 'admin' };
      const principal = await verifyApiKey({ store: options.storage.apiKeys, key });
      if (!principal) return undefined;
      return {
        keyId: principal.id,
        role: principal.roles.has('admin') ? 'admin' : 'consumer',
        clientId: principal.clientId ?? principal.id,
      };
    },
  };
}

/** A session for the app's own identity: bound to the credential id, so its CSRF tokens hold across requests. */
function appSessionOf(options: DashboardOptions, request: FastifyRequest): PortalSession | undefined {
  const principal = principalOf(request);
  if (principal?.kind !== 'app' || principal.clientId === undefined) return undefined;
  const role = principal.roles.has('admin') ? 'admin' : 'consumer';
  return {
    keyId: principal.id,
    role,
    clientId: principal.clientId,
    sessionId: `app:${principal.id}`,
    expiresAt: options.clock.now() + sessionSeconds * 1000,
  };
}
