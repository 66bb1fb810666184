import { createPublicKey } from 'node:crypto';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  importSPKI,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { JwtConfig } from '../../../kernel/config/load-config.ts';
import { isRole } from './api-keys.ts';
import type { Principal } from '../../../kernel/ports/principal.ts';

/** Verifies a compact JWT and returns its principal, or throws. */
export type JwtVerifier = (token: string) => Promise<Principal>;

const asymmetric = ['RS256', 'ES256', 'EdDSA'];

/**
 * Build the JWT verifier from config. Only the configured algorithms are accepted (never
 * `none`); `exp` is required, and `exp`, `nbf` and `iat` are checked with the configured clock
 * skew; a token may live no longer than `maxTokenAgeSeconds` (by `iat` when present, and by
 * `exp`, so a token without `iat` cannot be minted for years); `sub` (or `client_id`) is the
 * credential identifier, `client_id` names the client (`cl_…`) whose usage and resources the
 * token's calls are, and the space-separated `scope` claim maps to roles.
 */
export async function createJwtVerifier(config: JwtConfig, now: () => number): Promise<JwtVerifier> {
  let key: Uint8Array | CryptoKey | JWTVerifyGetKey;
  let algorithms: string[];
  if (config.secret !== undefined) {
    key = new TextEncoder().encode(config.secret);
    algorithms = ['HS256'];
  } else if (config.publicKeyPem !== undefined) {
    const type = createPublicKey(config.publicKeyPem).asymmetricKeyType;
    const alg = type === 'rsa' ? 'RS256' : type === 'ec' ? 'ES256' : type === 'ed25519' ? 'EdDSA' : undefined;
    if (!alg)
      throw new Error(`VERSIONARY_JWT_PUBLIC_KEY: key type ${type} is not supported (use RSA, EC P-256 or Ed25519)`);
    key = await importSPKI(config.publicKeyPem, alg);
    algorithms = [alg];
  } else if (config.jwks) {
    key =
      config.jwks.kind === 'url'
        ? createRemoteJWKSet(new URL(config.jwks.url))
        : createLocalJWKSet(config.jwks.document as JSONWebKeySet);
    algorithms = asymmetric;
  } else {
    throw new Error('no JWT key configured');
  }
  // The defaults `JwtConfig` documents: a day, and 30 seconds.
  const maxAge = config.maxTokenAgeSeconds ?? 24 * 3600;
  const skew = config.clockSkewSeconds ?? 30;
  return async (token) => {
    const at = now();
    const { payload } = await jwtVerify(token, key as Uint8Array, {
      algorithms,
      clockTolerance: skew,
      currentDate: new Date(at),
      requiredClaims: ['exp'],
      ...(config.issuer ? { issuer: config.issuer } : {}),
      ...(config.audience ? { audience: config.audience } : {}),
    });
    assertTokenAge({ payload, now: Math.floor(at / 1000), maxAge, skew });
    const subject =
      typeof payload.sub === 'string'
        ? payload.sub
        : typeof payload.client_id === 'string'
          ? payload.client_id
          : undefined;
    if (!subject || subject.length > 200) throw new Error('token has no sub or client_id');
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    const clientId =
      typeof payload.client_id === 'string' && payload.client_id.length > 0 && payload.client_id.length <= 200
        ? payload.client_id
        : undefined;
    return {
      id: `jwt:${subject}`,
      roles: new Set(scopes.filter(isRole)),
      kind: 'jwt',
      ...(clientId ? { clientId } : {}),
    };
  };
}

/**
 * A token must not be issued in the future, nor outlive the maximum age: neither issued longer
 * ago than that (`iat`) nor expiring further ahead than that (`exp`), each with the clock skew
 * allowed.
 */
function assertTokenAge(options: { payload: JWTPayload; now: number; maxAge: number; skew: number }): void {
  const { payload, now, maxAge, skew } = options;
  if (typeof payload.iat === 'number' && payload.iat > now + skew) throw new Error('token issued in the future');
  if (payload.exp! - now > maxAge + skew) throw new Error(`token expires more than ${maxAge} s ahead`);
  if (typeof payload.iat === 'number' && now - payload.iat > maxAge + skew)
    throw new Error(`token issued more than ${maxAge} s ago`);
}
