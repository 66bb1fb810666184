import { defineStep, stepKey } from '../../http/pipeline/step-definition.ts';
import type { RequestStep } from '../../http/pipeline/request-pipeline.ts';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { stateOf } from '../../http/pipeline/request-state.ts';
import { addressKey } from '../access/rate-limit/address-key.ts';
import { policyFor, rateLimitFields, type AppliedPolicy } from '../access/rate-limit/policy.ts';
import type { RateLimitSettings } from '../access/rate-limit/settings.ts';
import type { RateLimitStore } from '../../kernel/ports/rate-limit.ts';

export interface PageRateLimitOptions {
  /** The API's `rateLimit` settings: the pages get the same budget per address. */
  settings: RateLimitSettings;
  store: RateLimitStore;
  clock: Clock;
  /** The limited pages: by matched route pattern (asked once per route), then by method and pattern. */
  limited: { route: (url: string) => boolean; request: (method: string, url: string) => boolean };
}

export const pageRateLimitKey = stepKey<PageRateLimitOptions>('page-rate-limit');

/**
 * The `gate:page-rate-limit` step: limit the pages that check a secret per client address, with
 * the API's budget and answers, else a script could try keys as fast as the server answers. The
 * counters are the pages' own (`page:` keys); a failing store serves the page unlimited.
 */
export const pageRateLimitStep = defineStep({
  needs: pageRateLimitKey,
  name: 'page-rate-limit',
  phase: 'gate',
  appliesTo: (route, options) => route.url !== undefined && options.limited.route(route.url),
  create: (options) => {
    const { settings, limited } = options;
    if (!settings.enabled) return undefined;
    return pageLimit({
      ...options,
      policy: policyFor({ settings, roles: undefined }),
      keyOf: (request, url) => (limited.request(request.method, url) ? `page:${addressKey(request.ip)}` : undefined),
      what: 'This address',
      pages: 'to sign-in, feeds and unsubscribe links',
    });
  },
});

export interface PageLimitOptions {
  store: RateLimitStore;
  clock: Clock;
  policy: AppliedPolicy;
  /** The counter a request spends, or `undefined` when this budget does not count it. */
  keyOf: (request: FastifyRequest, url: string) => string | undefined | Promise<string | undefined>;
  /** Who the budget is of, and of which pages, for the problem's detail: `This address`, `to sign-in…`. */
  what: string;
  pages: string;
}

/** One budget of pages, counted and answered as {@link pageRateLimitStep} says. */
export function pageLimit(options: PageLimitOptions): RequestStep['run'] {
  const { store, clock, policy } = options;
  const windowMs = policy.windowSeconds * 1000;
  return async (request, reply, route) => {
    const key = await options.keyOf(request, route.url!);
    if (key === undefined) return;
    const now = clock.now();
    let hit;
    try {
      hit = await store.hit({ key, windowMs, now });
    } catch (error) {
      request.log.error({ err: error }, 'rate-limit store failed; serving the page unlimited');
      return;
    }
    // Whole seconds rounded up: a client that waits `t` seconds never arrives before the reset.
    const resetSeconds = Math.max(0, Math.ceil((hit.resetAt - now) / 1000));
    const fields = rateLimitFields({ policy, remaining: Math.max(0, policy.max - hit.count), resetSeconds });
    if (hit.count > policy.max) {
      stateOf(request).rateLimitPolicy = policy.name;
      throw new VersionaryError({
        code: ErrorCode.RateLimited,
        detail: `${options.what} may make ${policy.max} requests per ${policy.windowSeconds} seconds ${options.pages}; retry in ${resetSeconds} seconds.`,
        headers: { ...fields, 'retry-after': String(resetSeconds) },
      });
    }
    reply.headers(fields);
  };
}
