import { requestPipeline } from '../../http/pipeline/request-pipeline.ts';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import {
  addressKey,
  policyFor,
  rateLimitFields,
  type RateLimitSettings,
  type RateLimitStore,
} from '../rate-limit/index.ts';

/** Options for {@link installPageRateLimit}. */
export interface PageRateLimitOptions {
  /** The API's `rateLimit` settings: the pages get the same budget per address. */
  settings: RateLimitSettings;
  store: RateLimitStore;
  clock: Clock;
  /** The limited pages: by matched route pattern (asked once per route), then by method and pattern. */
  limited: { route: (url: string) => boolean; request: (method: string, url: string) => boolean };
}

/**
 * Limit the pages that check a secret (sign-in, personal feeds, unsubscribe links) per client
 * address, with the API's budget and answers: `RateLimit-Policy` and `RateLimit` on each, and over
 * the budget a `RATE_LIMITED` problem (429) with `Retry-After`. Otherwise a script could try keys
 * or tokens as fast as the server answers. The counters are the pages' own (`page:` keys), so
 * browsing the portal never spends an API client's budget. Runs in `onRequest`, before any key is
 * looked up; if the store fails the page is served unlimited and the failure logged, as the API does.
 */
export function installPageRateLimit(app: FastifyInstance, options: PageRateLimitOptions): void {
  const { settings, store, clock } = options;
  if (!settings.enabled) return;
  const policy = policyFor({ settings, roles: undefined });
  const { limited } = options;
  requestPipeline(app).add({
    name: 'page-rate-limit',
    phase: 'gate',
    appliesTo: (route) => route.url !== undefined && limited.route(route.url),
    run: async (request, reply, route) => {
      if (!limited.request(request.method, route.url!)) return;
      const now = clock.now();
      let hit;
      try {
        hit = await store.hit({ key: `page:${addressKey(request.ip)}`, windowMs: policy.windowSeconds * 1000, now });
      } catch (error) {
        request.log.error({ err: error }, 'rate-limit store failed; serving the page unlimited');
        return;
      }
      // Whole seconds rounded up: a client that waits `t` seconds never arrives before the reset.
      const resetSeconds = Math.max(0, Math.ceil((hit.resetAt - now) / 1000));
      const fields = rateLimitFields({ policy, remaining: Math.max(0, policy.max - hit.count), resetSeconds });
      if (hit.count > policy.max) {
        throw new VersionaryError({
          code: ErrorCode.RateLimited,
          detail: `This address may make ${policy.max} requests per ${policy.windowSeconds} seconds to sign-in, feeds and unsubscribe links; retry in ${resetSeconds} seconds.`,
          headers: { ...fields, 'retry-after': String(resetSeconds) },
        });
      }
      reply.headers(fields);
    },
  });
}
