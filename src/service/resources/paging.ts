import type { OperationContext } from '../../http/index.ts';
import type { Page } from '../ports/index.ts';
import { encodeCursor, type PageRequest } from './params.ts';

/** What a list handler reads: the `fields` it passes on, and the URL of the client's version. */
export type ListContext = Pick<OperationContext, 'url'> & { query: { fields?: string } };

/** The newest list representation, with its `Link` header. */
export interface ListResult<Item> {
  status: 200;
  body: { data: Item[]; meta: { limit: number; nextCursor: string | null; next: string | null } };
  headers: Record<string, string> | undefined;
}

/**
 * Shape a page as the newest list representation, with a `Link: rel="next"` header that keeps
 * the client's `limit` and `fields`.
 */
export function toListResult<T, Item>(options: {
  ctx: ListContext;
  path: string;
  page: Page<T>;
  request: PageRequest;
  toItem: (item: T) => Item;
}): ListResult<Item> {
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
