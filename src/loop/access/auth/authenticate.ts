import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import type { ApiKeyStore } from '../../../kernel/ports/index.ts';
import { isRole, verifyApiKey } from './api-keys.ts';
import type { ApiKeyCache } from './key-cache.ts';
import type { JwtVerifier } from './jwt.ts';
import type { RequestStep } from '../../../http/pipeline/step-definition.ts';
import { defineStep, stepKey } from '../../../http/pipeline/step-definition.ts';
import { hasDeprecation, stateOf } from '../../../http/pipeline/request-state.ts';
import {
  principalOf,
  setPrincipal,
  type AppIdentity,
  type Principal,
  type Role,
} from '../../../kernel/ports/principal.ts';

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

const maxCredential = 8192;
/** Who `VERSIONARY_ADMIN_KEY` is: one principal, shared by every request that presents it. */
const adminPrincipal: Principal = Object.freeze({
  id: 'admin',
  roles: new Set<Role>(['admin', 'read', 'write']),
  kind: 'admin-env',
});
/** `Retry-After` of a 503 when the key store cannot answer. */
const storageRetrySeconds = 5;
const challenge = (error?: string) => ({
  'www-authenticate': `Bearer realm="versionary"${error ? `, error="${error}"` : ''}`,
});
const invalid = (detail: string) =>
  new VersionaryError({ code: ErrorCode.Unauthenticated, detail, headers: challenge('invalid_token') });

export const authenticationKey = stepKey<AuthenticationOptions>('authentication');

/**
 * The `identify:authenticate` step: read the credentials of every request: `Authorization: Bearer
 * <key or JWT>` or `X-API-Key: <key>`. It never throws: a failure is kept for {@link authorizeStep},
 * so the rate limiter, between the two, counts failed attempts too.
 */
export const authenticateStep = defineStep({
  needs: authenticationKey,
  name: 'authenticate',
  thin: true,
  phase: 'identify',
  create: (options) => credentialReader(options),
});

function credentialReader(options: AuthenticationOptions): RequestStep['run'] {
  // The admin key is hashed once and resolved to one principal for the life of the app: a request
  // with it costs one digest and a string comparison, never a promise, and its constant roles set
  // finds the rate limit's policy already computed. Comparing digests rather than the keys, as the
  // key cache does, says nothing about the secret through timing. The one-shot `hash()` is a third
  // cheaper than a `Hash` object.
  const adminDigest = options.adminKey ? hash('sha256', options.adminKey, 'hex') : undefined;
  // The admin key by itself too: a Map lookup compares strings only when their hashes match.
  const adminByToken = new Map<string, Principal>(options.adminKey ? [[options.adminKey, adminPrincipal]] : []);
  const { keyCache, identify } = options;
  const failWith = (request: FastifyRequest, error: VersionaryError) => void (stateOf(request).authFailure = error);
  async function verify(credential: string, hex: string): Promise<Principal | undefined> {
    // One SHA-256 per request serves the admin comparison, the key cache and the key's check.
    if (credential.startsWith('vk_')) {
      const check = () => verifyApiKey({ store: options.apiKeys, key: credential, digest: hex });
      return keyCache ? keyCache.lookup(hex, check) : check();
    }
    // A token that fails verification is invalid (401), whatever jose threw.
    if (options.jwt && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(credential))
      return options.jwt(credential).catch(() => undefined);
    return undefined;
  }
  // Versionary's own credentials. A key verified before is found without a promise; only a
  // lookup in the store is awaited.
  const byCredential = (request: FastifyRequest): void | Promise<void> => {
    assertSingleCredentialHeaders(request);
    const credential = readCredential(request);
    if (credential === undefined) return;
    if (typeof credential !== 'string') return failWith(request, invalid(credential.detail));
    // A key seen before is found by itself, with no digest (the key cache's `byToken`).
    const cache = credential.startsWith('vk_') ? keyCache : undefined;
    const seen = cache ? cache.byToken(credential) : adminByToken.get(credential);
    if (seen) return void setPrincipal(request, seen);
    const digest = hash('sha256', credential, 'hex');
    if (digest === adminDigest) return void setPrincipal(request, adminPrincipal);
    const known = cache?.peek(digest);
    if (known) {
      cache?.remember(credential, digest);
      return void setPrincipal(request, known);
    }
    return verify(credential, digest).then(
      (principal) => {
        if (!principal)
          return failWith(request, invalid('The credentials are not valid: unknown, revoked or expired key or token.'));
        cache?.remember(credential, digest);
        setPrincipal(request, principal);
      },
      (error: unknown) => {
        // The store could not answer: the credentials may well be valid, so this is not a 401.
        request.log.error({ err: error }, 'credential check failed: storage unavailable');
        failWith(request, credentialsUnavailableProblem('storage'));
      },
    );
  };
  return identify
    ? async (request) => {
        const identity = await identify(request);
        if (!identity) return byCredential(request);
        setPrincipal(request, {
          id: identity.id ?? `app:${identity.clientId}`,
          clientId: identity.clientId,
          roles: new Set(identity.roles.filter(isRole)),
          kind: 'app',
        });
      }
    : byCredential;
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
  if (authorization > 1) throw repeatedCredentialProblem('authorization', authorization);
  if (apiKey > 1) throw repeatedCredentialProblem('x-api-key', apiKey);
}

/** A credential header sent more than once: 400. `count` may be a placeholder (the decision table's `{count}`). */
export function repeatedCredentialProblem(
  name: 'authorization' | 'x-api-key',
  count: number | string,
): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.MalformedRequest,
    detail: `Send one ${name === 'authorization' ? 'Authorization' : 'X-API-Key'} header, not ${count}.`,
    errors: [{ pointer: `/headers/${name}`, detail: 'repeated' }],
  });
}

/** A request with no credentials to a route that needs them: 401 with the challenge. */
export function credentialsMissingProblem(): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.Unauthenticated,
    detail: 'This API needs credentials: Authorization: Bearer <api key or token>, or X-API-Key: <key>.',
    headers: challenge(),
  });
}

/** The credentials could not be checked (the store, or for nginx the control plane, cannot answer): 503. */
export function credentialsUnavailableProblem(where: string): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.StorageUnavailable,
    detail: `The credentials could not be checked: ${where} is unavailable. Retry later.`,
    headers: { 'retry-after': String(storageRetrySeconds) },
  });
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

export const authorizationKey = stepKey<{ requirement: RoleRequirement }>('authorization');

/**
 * The `authorize:authorize` step: refuse requests that lack the role their route needs: 401 with
 * `WWW-Authenticate` without valid credentials, 403 with them but without the role. `admin`
 * includes `read` and `write`.
 */
export const authorizeStep = defineStep({
  needs: authorizationKey,
  name: 'authorize',
  thin: true,
  phase: 'authorize',
  create: (options) => (request, reply) => authorize(request, options.requirement(request), reply),
});

/** Refuse a request without the role `needed` (401 or 403), as every route that needs one is refused. */
export function authorize(request: FastifyRequest, needed: Role | undefined, reply?: FastifyReply): void {
  if (!needed) return;
  const state = stateOf(request);
  const principal = principalOf(request);
  // A removed version that a client with extended access may still call lets the request reach this point;
  // a caller who is not identified cannot be that client, so it gets the removal's answer (the
  // spec's 410 or 404 after the sunset), as it did before any grant, not a 401.
  const pending = state.pendingRemoval;
  if (!principal && pending && reply) {
    if (hasDeprecation(pending.headers)) state.deprecated = true;
    reply.headers(pending.headers);
    throw pending.error;
  }
  if (state.authFailure) throw state.authFailure;
  if (!principal) throw credentialsMissingProblem();
  if (!principal.roles.has(needed) && !principal.roles.has('admin')) {
    throw new VersionaryError({
      code: ErrorCode.Forbidden,
      detail: `This needs the ${needed} role; the credentials have ${[...principal.roles].join(', ') || 'no roles'}.`,
      extensions: { requiredRole: needed },
    });
  }
}
