import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { principalOf, tenantKeyOf } from '../auth/principal.ts';
import { addressKey } from './address-key.ts';
import { createPolicyLookup, policyFor, rateLimitFields, type AppliedPolicy } from './policy.ts';
import type { RateLimitSettings } from './settings.ts';
import type { RateLimitHit, RateLimitStore } from './store.ts';
import type { ApiScope } from '../../http/api-scope.ts';
import { routeUrlOf } from '../../http/route-url.ts';

/** Options for {@link installRateLimit}. */
export interface InstallRateLimitOptions {
  settings: RateLimitSettings;
  /** Where the API and the management API live: only they are limited. */
  scope: ApiScope;
  store: RateLimitStore;
  clock: Clock;
}

// The API (under its configured prefix) and the management API are limited; `/healthz`,
// `/problems/…` and `/` are not, so probes and docs keep answering while a client is throttled.
const kCounted = Symbol.for('versionary.rateLimitCounted');
type Counted = FastifyRequest & { [kCounted]?: true };
const isLimited = (scope: ApiScope, request: FastifyRequest) => {
  const path = routeUrlOf(request) ?? request.url;
  return scope.isApi(path) || scope.isManagement(path);
};
const hasCredential = (request: FastifyRequest) =>
  request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;

/**
 * The cheap refusal, registered BEFORE authentication so it costs no database read: a request
 * without credentials is counted against its address (IPv6 grouped by /64) at once, and refused
 * over the limit. A request with credentials goes on to authentication whatever its address has
 * spent: a valid key is never refused for other requests' failures (behind an ingress every
 * client shares one address). {@link installRateLimit}, after authentication, counts the rest:
 * authenticated requests per principal, failed credentials per address, refused over its budget.
 */
export function installAddressRateLimit(app: FastifyInstance, options: InstallRateLimitOptions): void {
  const { settings, store, clock, scope } = options;
  if (!settings.enabled) return;
  // Anonymous traffic has no roles: its policy is the same for every request.
  const policy = policyFor({ settings, roles: undefined });
  app.addHook('onRequest', async (request, reply) => {
    if (!isLimited(scope, request) || hasCredential(request)) return;
    const key = addressKey(request.ip);
    const now = clock.now();
    (request as Counted)[kCounted] = true;
    const hit = await guarded(request, () => store.hit({ key, windowMs: policy.windowSeconds * 1000, now }));
    if (hit) applyHit({ reply, policy, hit, now });
  });
}

/**
 * Limit every request under the API prefix and `/admin` with a fixed window per client (the principal's
 * id, else the address: `ip:<IPv4>` or `ip:<IPv6 /64>`). Every limited response carries `RateLimit-Policy` and
 * `RateLimit`; over the limit the request fails with `RATE_LIMITED` (429) plus `Retry-After`.
 *
 * Hand-written rather than `@fastify/rate-limit` (checked at 11.2.0): that plugin emits only the
 * older `RateLimit-Limit`/`-Remaining`/`-Reset` fields, not the current draft's `RateLimit-Policy`
 * and `RateLimit`; `createRateLimit` reports remaining/reset only for refused requests; and its
 * local store reads `Date.now()` rather than an injected Clock.
 *
 * Register it after the authentication hook: it reads the principal that hook sets. If the store
 * fails the request is served without the fields and the failure is logged, so a Redis outage
 * does not take the API down with it.
 */
export function installRateLimit(app: FastifyInstance, options: InstallRateLimitOptions): void {
  const { settings, store, clock, scope } = options;
  if (!settings.enabled) return;
  const policyOf = createPolicyLookup(settings);
  app.addHook('onRequest', async (request, reply) => {
    // The matched route's pattern, not the raw URL: the router decodes `%61pi` into `api`.
    if (!isLimited(scope, request) || (request as Counted)[kCounted]) return;
    const principal = principalOf(request);
    const policy = policyOf(principal?.roles);
    const now = clock.now();
    // Failed credentials count against the address, like anonymous traffic.
    const key = principal ? tenantKeyOf(principal) : addressKey(request.ip);
    const hit = await guarded(request, () => store.hit({ key, windowMs: policy.windowSeconds * 1000, now }));
    if (hit) applyHit({ reply, policy, hit, now });
  });
}

/** Refuse a hit over the limit (429 with `Retry-After`), else set the RateLimit fields. */
function applyHit(options: { reply: FastifyReply; policy: AppliedPolicy; hit: RateLimitHit; now: number }): void {
  const { policy, hit, now } = options;
  // Whole seconds rounded up: a client that waits `t` seconds never arrives before the reset.
  const resetSeconds = Math.max(0, Math.ceil((hit.resetAt - now) / 1000));
  const fields = rateLimitFields({ policy, remaining: Math.max(0, policy.max - hit.count), resetSeconds });
  if (hit.count > policy.max) {
    throw new VersionaryError({
      code: ErrorCode.RateLimited,
      detail: `This client may make ${policy.max} requests per ${policy.windowSeconds} seconds; retry in ${resetSeconds} seconds.`,
      headers: { ...fields, 'retry-after': String(resetSeconds) },
    });
  }
  options.reply.headers(fields);
}

async function guarded<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    request.log.error({ err: error }, 'rate-limit store failed; serving the request unlimited');
    return undefined;
  }
}
