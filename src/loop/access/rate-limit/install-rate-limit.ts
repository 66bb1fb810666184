import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../../core/clock/index.ts';
import { rateCounterKey } from '../../../core/rulebook/rules.ts';
import { principalOf, type Principal } from '../../../kernel/ports/principal.ts';
import { addressKey } from './address-key.ts';
import { createPolicyLookup, policyFor, policyHeadersOf, rateLimitedProblem, type PolicyHeaders } from './policy.ts';
import type { RateLimitSettings } from './settings.ts';
import type { RateLimitHit, RateLimitStore } from '../../../kernel/ports/rate-limit.ts';
import type { ApiScope } from '../../../http/api-scope.ts';
import { defineStep, stepKey } from '../../../http/pipeline/step-definition.ts';
import { stateOf } from '../../../http/pipeline/request-state.ts';
import type { RouteDescription } from '../../../http/pipeline/route-description.ts';

export interface InstallRateLimitOptions {
  settings: RateLimitSettings;
  /** Where the API and the management API live: only they are limited. */
  scope: ApiScope;
  store: RateLimitStore;
  clock: Clock;
}

// The API (under its configured prefix) and the management API are limited; `/healthz`,
// `/problems/…` and `/` are not, so probes and docs keep answering while a client is throttled.
const isLimited = (route: RouteDescription) => route.api || route.management;
const hasCredential = (request: FastifyRequest) =>
  request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;

/** Provided in the context of `scope.prefix`, as {@link rateLimitKey} is. */
export const addressRateLimitKey = stepKey<InstallRateLimitOptions>('address-rate-limit');

/**
 * The `gate:address-rate-limit` step, off when limits are: the cheap refusal, BEFORE
 * authentication so it costs no database read: a request without credentials is counted against
 * its address (IPv6 grouped by /64) at once, and refused over the limit. A request with
 * credentials goes on to authentication whatever its address has spent: a valid key is never
 * refused for other requests' failures (behind an ingress every client shares one address).
 * {@link rateLimitStep}, after authentication, counts the rest: authenticated requests per
 * principal, failed credentials per address, refused over its budget.
 */
export const addressRateLimitStep = defineStep({
  needs: addressRateLimitKey,
  name: 'address-rate-limit',
  thin: true,
  // Before `identify`: a request without credentials is refused without any storage read.
  phase: 'gate',
  appliesTo: isLimited,
  create: (options) => {
    const { settings, store, clock } = options;
    if (!settings.enabled) return undefined;
    // Anonymous traffic has no roles: its policy is the same for every request.
    const policy = policyHeadersOf(policyFor({ settings, roles: undefined }));
    const count = counter(store);
    return (request, reply) => {
      if (hasCredential(request)) return;
      stateOf(request).counted = true;
      return count({ request, reply, policy, key: addressKey(request.ip), now: clock.now() });
    };
  },
});

export const rateLimitKey = stepKey<InstallRateLimitOptions>('rate-limit');

/**
 * The `limit:rate-limit` step, off when limits are: limit every request under the API prefix and `/admin` with a fixed window per client and policy
 * (`rateCounterKey` of core: the principal's client, else its id; without a principal the address,
 * `ip:<IPv4>` or `ip:<IPv6 /64>`). Every limited response carries `RateLimit-Policy` and
 * `RateLimit`; over the limit the request fails with `RATE_LIMITED` (429) plus `Retry-After`.
 *
 * Hand-written rather than `@fastify/rate-limit` (checked at 11.2.0): that plugin emits only the
 * older `RateLimit-Limit`/`-Remaining`/`-Reset` fields, not the current draft's `RateLimit-Policy`
 * and `RateLimit`; `createRateLimit` reports remaining/reset only for refused requests; and its
 * local store reads `Date.now()` rather than an injected Clock.
 *
 * It runs after the `authenticate` step: it reads the principal that step sets. If the store
 * fails the request is served without the fields and the failure is logged, so a Redis outage
 * does not take the API down with it.
 */
export const rateLimitStep = defineStep({
  needs: rateLimitKey,
  name: 'rate-limit',
  thin: true,
  phase: 'limit',
  // The matched route's pattern, not the raw URL: the router decodes `%61pi` into `api`.
  appliesTo: isLimited,
  create: (options) => {
    const { settings, store, clock } = options;
    if (!settings.enabled) return undefined;
    const policyOf = createPolicyLookup(settings);
    const anonymous = policyHeadersOf(policyOf(undefined));
    // A principal keeps its object for as long as its key is cached (and the admin key's for the
    // life of the app): its counter key, policy and field strings are worked out at its first request.
    const limits = new WeakMap<Principal, { key: string; policy: PolicyHeaders }>();
    const limitsOf = (principal: Principal) => {
      let found = limits.get(principal);
      if (found === undefined) {
        const policy = policyHeadersOf(policyOf(principal.roles));
        // Per client and policy (core's rule, which nginx mirrors): a client's keys of one policy share a budget.
        found = { key: rateCounterKey(principal.clientId ?? principal.id, policy.policy), policy };
        limits.set(principal, found);
      }
      return found;
    };
    const count = counter(store);
    return (request, reply) => {
      if (stateOf(request).counted) return;
      const principal = principalOf(request);
      const now = clock.now();
      if (principal) return count({ request, reply, ...limitsOf(principal), now });
      // Failed credentials count against the address, like anonymous traffic.
      return count({ request, reply, policy: anonymous, key: addressKey(request.ip), now });
    };
  },
});

/**
 * Count one hit and apply it: at once through a store kept in this process (`hitNow`), else
 * awaited. A store that fails serves the request unlimited, and says so in the log.
 */
function counter(store: RateLimitStore) {
  return (o: { request: FastifyRequest; reply: FastifyReply; policy: PolicyHeaders; key: string; now: number }) => {
    const { request, reply, policy, key, now } = o;
    const windowMs = policy.policy.windowSeconds * 1000;
    if (store.hitNow) {
      let hit: RateLimitHit | undefined;
      try {
        hit = store.hitNow({ key, windowMs, now });
      } catch (error) {
        storeFailed(request, error);
      }
      if (hit) applyHit({ reply, policy, hit, now });
      return;
    }
    return store.hit({ key, windowMs, now }).then(
      (hit) => applyHit({ reply, policy, hit, now }),
      (error: unknown) => storeFailed(request, error),
    );
  };
}

/** Refuse a hit over the limit (429 with `Retry-After`), else set the RateLimit fields. */
function applyHit(options: { reply: FastifyReply; policy: PolicyHeaders; hit: RateLimitHit; now: number }): void {
  const { hit, now } = options;
  const { policy, name, policyField } = options.policy;
  // Whole seconds rounded up: a client that waits `t` seconds never arrives before the reset.
  const resetSeconds = Math.max(0, Math.ceil((hit.resetAt - now) / 1000));
  const remaining = Math.max(0, policy.max - hit.count);
  if (hit.count > policy.max) {
    const state = stateOf(options.reply.request);
    state.rateLimitPolicy = policy.name;
    state.decision = 'rate_limited';
    throw rateLimitedProblem({ policy, remaining, resetSeconds });
  }
  // Two calls, no object: this runs on every limited request.
  options.reply.header('ratelimit-policy', policyField).header('ratelimit', `${name};r=${remaining};t=${resetSeconds}`);
}

function storeFailed(request: FastifyRequest, error: unknown): void {
  request.log.error({ err: error }, 'rate-limit store failed; serving the request unlimited');
}
