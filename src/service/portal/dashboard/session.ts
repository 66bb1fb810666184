import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../../core/clock/index.ts';

/** Who is signed in to the portal. */
export interface PortalSession {
  /** The credential signed in with: an API key id, or `admin` for the configured admin key. */
  keyId: string;
  role: 'consumer' | 'admin';
  /** The client a consumer's data belongs to (the key's client, else the key itself). */
  clientId: string;
  /** Unique per sign-in; CSRF tokens are bound to it. */
  sessionId: string;
  expiresAt: number;
}

/** Signs and reads the sign-in cookie; derives the CSRF token of a session. */
export interface SessionCodec {
  issue(session: Omit<PortalSession, 'sessionId' | 'expiresAt'>): Promise<{ token: string; session: PortalSession }>;
  /** The session of a cookie value; `undefined` when forged, altered, expired or malformed. */
  read(token: string | undefined): Promise<PortalSession | undefined>;
  csrfToken(session: PortalSession): string;
  checkCsrf(session: PortalSession, token: unknown): boolean;
}

/** How long a sign-in lasts: short, since nothing on the server can end it early but a revoked key. */
export const sessionSeconds = 30 * 60;

/**
 * A stateless session: the cookie is an HS256 JWT (jose) holding the key id, the role, the client
 * and an expiry; nothing is stored on the server. The CSRF token is an HMAC of the session id with
 * the same secret, so a form is only valid for the sign-in that rendered it.
 *
 * @example
 * ```ts
 * const codec = createSessionCodec({ secret, clock });
 * const { token } = await codec.issue({ keyId: 'key_1', role: 'consumer', clientId: 'cl_1' });
 * ```
 */
export function createSessionCodec(options: { secret?: string; clock: Clock }): SessionCodec {
  const secret = options.secret ? Buffer.from(options.secret) : randomBytes(32);
  const key = new Uint8Array(secret);
  const csrfToken = (session: PortalSession) => createHmac('sha256', secret).update(`csrf:${session.sessionId}`).digest('base64url');
  return {
    async issue(fields) {
      const now = options.clock.now();
      const session: PortalSession = { ...fields, sessionId: randomBytes(16).toString('base64url'), expiresAt: now + sessionSeconds * 1000 };
      const token = await new SignJWT({ role: session.role, client: session.clientId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(session.keyId)
        .setJti(session.sessionId)
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor(session.expiresAt / 1000))
        .setAudience('versionary-portal')
        .sign(key);
      return { token, session };
    },
    async read(token) {
      if (!token || token.length > 2000) return undefined;
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: 'versionary-portal', currentDate: new Date(options.clock.now()), clockTolerance: 0 });
        const { sub, jti, exp, role, client } = payload;
        if (typeof sub !== 'string' || typeof jti !== 'string' || typeof exp !== 'number' || typeof client !== 'string' || (role !== 'consumer' && role !== 'admin')) return undefined;
        return { keyId: sub, sessionId: jti, expiresAt: exp * 1000, role, clientId: client };
      } catch {
        return undefined;
      }
    },
    csrfToken,
    checkCsrf(session, token) {
      if (typeof token !== 'string') return false;
      const expected = Buffer.from(csrfToken(session));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
