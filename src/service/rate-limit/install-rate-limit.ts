import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { clientIdOf, principalOf } from '../auth/principal.ts';
import { policyFor, rateLimitFields } from './policy.ts';
import type { RateLimitSettings } from './settings.ts';
import type { RateLimitStore } from './store.ts';

/** Options for {@link installRateLimit}. */
export interface InstallRateLimitOptions {
  settings: RateLimitSettings;
  store: RateLimitStore;
  clock: Clock;
}

// The API and the management API are limited; `/healthz`, `/problems/…` and `/` are not, so probes
// and docs keep answering while a client is throttled.
const limitedPath = /^\/(?:api|admin)(?:[/?#]|$)/;

/**
 * Limit every request under `/api` and `/admin` with a fixed window per client (`clientIdOf`: the
 * principal's id, else `ip:<address>`). Every limited response carries `RateLimit-Policy` and
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
 *
 * @example
 * ```ts
 * installRateLimit(app, { settings: parseRateLimitSettings({ file, errors }), store: createMemoryRateLimitStore(), clock });
 * ```
 */
export function installRateLimit(app: FastifyInstance, options: InstallRateLimitOptions): void {
  const { settings, store, clock } = options;
  if (!settings.enabled) return;
  app.addHook('onRequest', async (request, reply) => {
    // The matched route's pattern, not the raw URL: the router decodes `%61pi` into `api`.
    if (!limitedPath.test(request.routeOptions.url ?? request.url)) return;
    const policy = policyFor({ settings, roles: principalOf(request)?.roles });
    const now = clock.now();
    const hit = await hitOrUndefined({ store, request, key: clientIdOf(request), windowMs: policy.windowSeconds * 1000, now });
    if (!hit) return;
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
    reply.headers(fields);
  });
}

async function hitOrUndefined(options: { store: RateLimitStore; request: FastifyRequest; key: string; windowMs: number; now: number }) {
  try {
    return await options.store.hit({ key: options.key, windowMs: options.windowMs, now: options.now });
  } catch (error) {
    options.request.log.error({ err: error }, 'rate-limit store failed; serving the request unlimited');
    return undefined;
  }
}
