import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import type { ApiKeyStore } from '../ports/index.ts';
import { verifyApiKey } from './api-keys.ts';
import type { ApiKeyCache } from './key-cache.ts';
import type { JwtVerifier } from './jwt.ts';
import { principalOf, setPrincipal, type AppIdentity, type Principal, type Role } from './principal.ts';

/** Options for {@link installAuthentication}. */
export interface AuthenticationOptions {
  apiKeys: ApiKeyStore;
  jwt?: JwtVerifier;
  /** `VERSIONARY_ADMIN_KEY`, accepted as an admin that is never stored. */
  adminKey?: string;
  /** Verified keys kept in memory, emptied through the change feed (`key-cache.ts`); closed with the app. */
  keyCache?: ApiKeyCache;
  /**
   * The app's own authentication, asked first: an identity makes the request that client's, with
   * those roles; `undefined` falls back to Versionary's keys and JWTs; a throw is the app's answer
   * (its own 401, say).
   */
  identify?: (request: FastifyRequest) => AppIdentity | undefined | Promise<AppIdentity | undefined>;
}

const kFailure = Symbol.for('versionary.authFailure');
type Marked = FastifyRequest & { [kFailure]?: VersionaryError };
const maxCredential = 8192;
/** `Retry-After` of a 503 when the key store cannot answer. */
const storageRetrySeconds = 5;
const challenge = (error?: string) => ({
  'www-authenticate': `Bearer realm="versionary"${error ? `, error="${error}"` : ''}`,
});

/**
 * Read the credentials of every request: `Authorization: Bearer <key or JWT>` or
 * `X-API-Key: <key>`. It never throws: a failure is kept for {@link installAuthorization}, so the
 * rate limiter, installed between the two, counts failed attempts too.
 */
export function installAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  // Hex digests compared as bytes: the one-shot `hash()` is a third cheaper than a `Hash` object.
  const admin = options.adminKey ? Buffer.from(hash('sha256', options.adminKey, 'hex'), 'latin1') : undefined;
  const { keyCache } = options;
  if (keyCache) app.addHook('onClose', async () => keyCache.close());
  const { identify } = options;
  app.addHook('onRequest', async (request) => {
    if (identify) {
      const identity = await identify(request);
      if (identity) {
        const roles = identity.roles.filter(
          (role): role is Role => role === 'read' || role === 'write' || role === 'admin',
        );
        return void setPrincipal(request, {
          id: identity.id ?? `app:${identity.clientId}`,
          clientId: identity.clientId,
          roles: new Set(roles),
          kind: 'app',
        });
      }
    }
    assertSingleCredentialHeaders(request);
    const credential = readCredential(request);
    if (credential === undefined) return;
    let principal: Principal | undefined;
    try {
      principal = typeof credential === 'string' ? await verify(credential) : undefined;
    } catch (error) {
      // The store could not answer: the credentials may well be valid, so this is not a 401.
      request.log.error({ err: error }, 'credential check failed: storage unavailable');
      (request as Marked)[kFailure] = new VersionaryError({
        code: ErrorCode.StorageUnavailable,
        detail: 'The credentials could not be checked: storage is unavailable. Retry later.',
        headers: { 'retry-after': String(storageRetrySeconds) },
      });
      return;
    }
    if (principal) setPrincipal(request, principal);
    else
      (request as Marked)[kFailure] = new VersionaryError({
        code: ErrorCode.Unauthenticated,
        detail:
          typeof credential === 'string'
            ? 'The credentials are not valid: unknown, revoked or expired key or token.'
            : credential.detail,
        headers: challenge('invalid_token'),
      });
  });

  async function verify(credential: string): Promise<Principal | undefined> {
    // One SHA-256 per request serves the admin comparison, the key cache and the key's check.
    const hex = hash('sha256', credential, 'hex');
    if (admin && timingSafeEqual(Buffer.from(hex, 'latin1'), admin)) {
      return { id: 'admin', roles: new Set<Role>(['admin', 'read', 'write']), kind: 'admin-env' };
    }
    if (credential.startsWith('vk_')) {
      const check = () => verifyApiKey({ store: options.apiKeys, key: credential, digest: hex });
      return keyCache ? keyCache.lookup(hex, check) : check();
    }
    // A token that fails verification is invalid (401), whatever jose threw.
    if (options.jwt && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(credential))
      return options.jwt(credential).catch(() => undefined);
    return undefined;
  }
}

/**
 * Node keeps only the first of several `Authorization` headers and joins several `X-API-Key`s;
 * either way the server would pick a credential the client did not mean. Refuse with 400.
 */
function assertSingleCredentialHeaders(request: FastifyRequest): void {
  const raw = request.raw.rawHeaders;
  let authorization = 0;
  let apiKey = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Only names of the right length are lowered and compared: this runs on every request.
    if (name.length === 13 && name.toLowerCase() === 'authorization') authorization++;
    else if (name.length === 9 && name.toLowerCase() === 'x-api-key') apiKey++;
  }
  if (authorization < 2 && apiKey < 2) return;
  for (const [name, count] of [
    ['authorization', authorization],
    ['x-api-key', apiKey],
  ] as const) {
    if (count > 1)
      throw new VersionaryError({
        code: ErrorCode.MalformedRequest,
        detail: `Send one ${name === 'authorization' ? 'Authorization' : 'X-API-Key'} header, not ${count}.`,
        errors: [{ pointer: `/headers/${name}`, detail: 'repeated' }],
      });
  }
}

function readCredential(request: FastifyRequest): string | { detail: string } | undefined {
  const auth = request.headers.authorization;
  const apiKey = request.headers['x-api-key'];
  if (auth === undefined && apiKey === undefined) return undefined;
  if (typeof apiKey === 'string' && auth === undefined)
    return apiKey.length <= maxCredential ? apiKey.trim() : { detail: 'X-API-Key is too long.' };
  if (typeof auth !== 'string') return { detail: 'Send one Authorization header.' };
  if (auth.length > maxCredential) return { detail: 'The Authorization header is too long.' };
  const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(auth);
  return match ? match[1]! : { detail: 'Authorization must be "Bearer <api key or token>".' };
}

/** Which role a request needs; `undefined` for public routes. */
export type RoleRequirement = (request: FastifyRequest) => Role | undefined;

/**
 * Refuse requests that lack the role their route needs: 401 with `WWW-Authenticate` without
 * valid credentials, 403 with them but without the role. `admin` includes `read` and `write`.
 */
export function installAuthorization(app: FastifyInstance, options: { requirement: RoleRequirement }): void {
  app.addHook('onRequest', async (request) => {
    const needed = options.requirement(request);
    if (!needed) return;
    const failure = (request as Marked)[kFailure];
    if (failure) throw failure;
    const principal = principalOf(request);
    if (!principal)
      throw new VersionaryError({
        code: ErrorCode.Unauthenticated,
        detail: 'This API needs credentials: Authorization: Bearer <api key or token>, or X-API-Key: <key>.',
        headers: challenge(),
      });
    if (!principal.roles.has(needed) && !principal.roles.has('admin')) {
      throw new VersionaryError({
        code: ErrorCode.Forbidden,
        detail: `This needs the ${needed} role; the credentials have ${[...principal.roles].join(', ') || 'no roles'}.`,
        extensions: { requiredRole: needed },
      });
    }
  });
}
