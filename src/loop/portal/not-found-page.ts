import { defineStep, stepKey } from '../../http/pipeline/step-definition.ts';
import type { ApiScope } from '../../http/api-scope.ts';
import { pageHeaders } from './page-headers.ts';
import { prefersHtml } from './prefers-html.ts';

export const notFoundPageKey = stepKey<NotFoundPageOptions>('not-found-page');

/**
 * The `respond:not-found-page` step: a browser's 404 outside the API gets a page instead of problem
 * JSON; a request that prefers JSON, or any path under the API or `/admin`, keeps the problem.
 */
export const notFoundPageStep = defineStep({
  needs: notFoundPageKey,
  name: 'not-found-page',
  thin: true,
  phase: 'respond',
  create: (options) => {
    const { scope } = options;
    const isApi = (url: string) => scope.isApi(url) || scope.isManagement(url);
    return (request, reply, payload) => {
      if (reply.statusCode !== 404 || isApi(request.url)) return payload;
      const vary = String(reply.getHeader('vary') ?? '');
      if (!/\baccept\b/i.test(vary)) reply.header('vary', vary ? `${vary}, Accept` : 'Accept');
      const type = String(reply.getHeader('content-type') ?? '');
      if (
        !type.startsWith('application/problem+json') ||
        typeof payload !== 'string' ||
        !prefersHtml(request.headers.accept)
      )
        return payload;
      reply.headers(pageHeaders).header('content-type', 'text/html; charset=utf-8');
      return options.page(detailOf(payload));
    };
  },
});

/**
 * The page is rendered by the caller (the portal's `home-page.ts`): this file is listed in the
 * loop's steps, which every loop loads, also with `portal: false` and Preact not installed.
 */
export interface NotFoundPageOptions {
  scope: ApiScope;
  page: (detail: string | undefined) => string;
}

function detailOf(payload: string): string | undefined {
  try {
    const detail = (JSON.parse(payload) as { detail?: unknown }).detail;
    return typeof detail === 'string' ? detail : undefined;
  } catch {
    return undefined;
  }
}
