import type { ElementDeprecation } from '../../core/lifecycle/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { OperationContext } from '../../http/index.ts';
import type { Page, PageOptions } from '../../kernel/ports/index.ts';
import { encodeCursor } from './params.ts';

type ListContext = Pick<OperationContext, 'url'> & { query: { fields?: string } };

/** A page as the newest list representation, with a `Link: rel="next"` that keeps `limit` and `fields`. */
export function toListResult<T, Item>(options: {
  ctx: ListContext;
  path: string;
  page: Page<T>;
  request: PageOptions;
  toItem: (item: T) => Item;
}) {
  const { ctx, path, page, request } = options;
  const nextCursor = page.nextAfter === null ? null : encodeCursor(page.nextAfter);
  const params = new URLSearchParams({ limit: String(request.limit) });
  if (nextCursor) params.set('cursor', nextCursor);
  if (ctx.query.fields !== undefined) params.set('fields', ctx.query.fields);
  const next = nextCursor ? ctx.url(`${path}?${params.toString()}`) : null;
  return {
    status: 200 as const,
    body: { data: page.items.map(options.toItem), meta: { limit: request.limit, nextCursor, next } },
    headers: next ? { link: `<${next}>; rel="next"` } : undefined,
  };
}

const pagedOperations: readonly string[] = ['users.list', 'posts.list'];
/** The query parameters every `next` link carries, whether or not the client sent them. */
const nextLinkParameters: readonly string[] = ['limit', 'cursor'];

/**
 * Deprecations of a parameter the service writes into its own `next` links: past its sunset no
 * client could page on, so it goes only with its version (`fields` comes from the client).
 */
export function emittedParameterProblems(options: {
  elements: readonly ElementDeprecation[];
  bundle: Pick<VersionBundle, 'versions'>;
}): string[] {
  return options.elements.flatMap((e) => {
    if (e.kind !== 'parameter' || !nextLinkParameters.includes(e.parameter)) return [];
    const version = options.bundle.versions.find((v) => v.name === e.version);
    const op = version?.operations.find((o) => o.method === e.method && o.path === e.path);
    if (!op || !pagedOperations.includes(op.id)) return [];
    return [
      `parameter deprecation ${e.element} in ${e.version}: the service writes "${e.parameter}" into the next-page link of ${e.method} ${e.path} (the Link rel="next" header and meta.next), so after its sunset that link would be refused and no client could page past the first page; it can go only with its version`,
    ];
  });
}
