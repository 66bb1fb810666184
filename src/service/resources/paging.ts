import type { OperationContext, OperationResult } from '../../http/index.ts';
import type { Page } from '../ports/index.ts';
import { encodeCursor, type PageRequest } from './params.ts';

/**
 * Shape a page as the newest list representation, with a `Link: rel="next"` header that keeps
 * the client's `limit` and `fields`.
 *
 * @example
 * ```ts
 * return toListResult({ ctx, path: '/users', page, request, toItem: toUserBody });
 * ```
 */
export function toListResult<T>(options: { ctx: OperationContext; path: string; page: Page<T>; request: PageRequest; toItem: (item: T) => unknown }): OperationResult {
  const { ctx, path, page, request } = options;
  const nextCursor = page.nextAfter === null ? null : encodeCursor(page.nextAfter);
  const params = new URLSearchParams({ limit: String(request.limit) });
  if (nextCursor) params.set('cursor', nextCursor);
  if (ctx.query.fields !== undefined) params.set('fields', ctx.query.fields);
  const next = nextCursor ? ctx.url(`${path}?${params.toString()}`) : null;
  return {
    status: 200,
    body: { data: page.items.map(options.toItem), meta: { limit: request.limit, nextCursor, next } },
    headers: next ? { link: `<${next}>; rel="next"` } : undefined,
  };
}
