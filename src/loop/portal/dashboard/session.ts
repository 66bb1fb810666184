import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../../core/clock/index.ts';

/** The sign-in cookie; scoped to the portal's path, so API requests never carry it. */
export const cookieName = 'versionary_portal';

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

export type SessionCodec = ReturnType<typeof createSessionCodec>;

/** How long a sign-in lasts: short, since nothing on the server can end it early but a revoked key. */
export const sessionSeconds = 30 * 60;

/**
 * A stateless session: an HS256 JWT cookie. The CSRF token is an HMAC of the session id, so a form
 * holds only for the sign-in that rendered it; a feed URL carries an HMAC of the key id.
 */
export function createSessionCodec(options: { secret?: string; clock: Clock }) {
  const secret = options.secret ? Buffer.from(options.secret) : randomBytes(32);
  const key = new Uint8Array(secret);
  const csrfToken = (session: PortalSession) =>
    createHmac('sha256', secret).update(`csrf:${session.sessionId}`).digest('base64url');
  const feedMac = (keyId: string) => createHmac('sha256', secret).update(`feed:${keyId}`).digest('base64url');
  const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  return {
    /** The signed cookie value of a new sign-in. */
    async issue(fields: Omit<PortalSession, 'sessionId' | 'expiresAt'>): Promise<string> {
      const now = options.clock.now();
      return new SignJWT({ role: fields.role, client: fields.clientId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(fields.keyId)
        .setJti(randomBytes(16).toString('base64url'))
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor((now + sessionSeconds * 1000) / 1000))
        .setAudience('versionary-portal')
        .sign(key);
    },
    /** The session of a cookie value; `undefined` when forged, altered, expired or malformed. */
    async read(token: string | undefined): Promise<PortalSession | undefined> {
      if (!token || token.length > 2000) return undefined;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          audience: 'versionary-portal',
          currentDate: new Date(options.clock.now()),
          clockTolerance: 0,
        });
        const { sub, jti, exp, role, client } = payload;
        if (
          typeof sub !== 'string' ||
          typeof jti !== 'string' ||
          typeof exp !== 'number' ||
          typeof client !== 'string' ||
          (role !== 'consumer' && role !== 'admin')
        )
          return undefined;
        return { keyId: sub, sessionId: jti, expiresAt: exp * 1000, role, clientId: client };
      } catch {
        return undefined;
      }
    },
    csrfToken,
    checkCsrf(session: PortalSession, token: unknown): boolean {
      return typeof token === 'string' && same(token, csrfToken(session));
    },
    /** The secret part of a key's personal feed URL: `<keyId>.<mac>`. */
    feedToken: (keyId: string) => `${keyId}.${feedMac(keyId)}`,
    /** The key id a feed token was made for, or `undefined` when it is not one of ours. */
    feedKeyOf(token: string): string | undefined {
      const dot = token.lastIndexOf('.');
      if (dot <= 0 || token.length > 200) return undefined;
      const keyId = token.slice(0, dot);
      return same(token.slice(dot + 1), feedMac(keyId)) ? keyId : undefined;
    },
  };
}
