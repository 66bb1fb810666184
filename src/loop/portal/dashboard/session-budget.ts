import type { Clock } from '../../../core/clock/index.ts';
import { principalOf } from '../../../kernel/ports/principal.ts';
import type { RateLimitStore } from '../../../kernel/ports/rate-limit.ts';
import { defineStep, stepKey } from '../../../http/pipeline/step-definition.ts';
import { pageLimit } from '../page-rate-limit.ts';
import type { SessionBudget } from '../settings.ts';
import { cookieName, type SessionCodec } from './session.ts';

export interface SessionBudgetOptions {
  /** `portal.sessionBudget`; `false` installs nothing. */
  budget: SessionBudget | false;
  store: RateLimitStore;
  clock: Clock;
  sessions: SessionCodec;
  /**
   * A `Cookie` header's cookies by name (the portal passes `@fastify/cookie`'s parser): this file is
   * listed in the loop's steps, which every loop loads, also with `portal: false` and the portal's
   * packages not installed.
   */
  parseCookies: (header: string) => Record<string, string | undefined>;
}

// The pages a key is signed in to; the sign-in form and the feeds are limited per address instead.
const openPages = new Set(['/portal/sign-in', '/portal/feed/:token']);
const isSignedInPage = (url: string) => (url === '/portal' || url.startsWith('/portal/')) && !openPages.has(url);

export const sessionBudgetKey = stepKey<SessionBudgetOptions>('portal-session-budget');

/**
 * The `limit:portal-session-budget` step: a budget of portal pages per signed-in key, answered as
 * the API's limit is. A page such as "What breaks" costs CPU every tenant shares. Per key, not per
 * cookie, so signing in again does not start a fresh one; a request with no valid session is sent
 * to the sign-in page, which costs nothing, and is not counted.
 */
export const sessionBudgetStep = defineStep({
  needs: sessionBudgetKey,
  name: 'portal-session-budget',
  phase: 'limit',
  appliesTo: (route) => route.url !== undefined && isSignedInPage(route.url),
  create: (options) => {
    const { budget } = options;
    if (budget === false) return undefined;
    return pageLimit({
      ...options,
      policy: { name: 'portal-session', max: budget.max, windowSeconds: budget.windowSeconds },
      // Its cookie's signed-in key, else the app's own identity.
      keyOf: async (request) => {
        const header = request.headers.cookie;
        // The signature and expiry only: a revoked key's cookie is counted too, then sent to sign in.
        const session = header ? await options.sessions.read(options.parseCookies(header)[cookieName]) : undefined;
        if (session) return `portal:${session.keyId}`;
        const principal = principalOf(request);
        return principal?.kind === 'app' && principal.clientId !== undefined ? `portal:app:${principal.id}` : undefined;
      },
      what: 'This sign-in',
      pages: 'to the portal',
    });
  },
});
