import type { Clock } from '../../core/clock/index.ts';
import type { OperationContext, OperationHandler } from '../../http/index.ts';
import type { PostRecord, PostStore, UserStore } from '../ports/index.ts';
import { toListResult } from './paging.ts';
import { notFound, parseId, parsePage } from './params.ts';
import { isVisible, ownerScopeOf } from '../clients/tenancy.ts';

/** Options for {@link createPostHandlers}. */
export interface PostHandlersOptions {
  users: UserStore;
  posts: PostStore;
  clock: Clock;
}

/**
 * The handlers for a user's posts. Every route checks the user first: posts of an unknown user
 * are 404.
 *
 * @example
 * ```ts
 * const handlers = createPostHandlers({ users, posts, clock });
 * ```
 */
export function createPostHandlers({ users, posts, clock }: PostHandlersOptions): Record<string, OperationHandler> {
  // Posts are reached through their user, and belong to its owner: a user another client owns is 404, and so are its posts.
  const requireUser = async (ctx: OperationContext) => {
    const id = parseId({ raw: ctx.params.id, what: 'user' });
    const user = await users.get(id);
    if (!user || !isVisible({ owner: user.clientId, scope: ownerScopeOf(ctx.request) })) throw notFound('user', id);
    return id;
  };
  return {
    'posts.list': async (ctx) => {
      const userId = await requireUser(ctx);
      const request = parsePage(ctx.query);
      const page = await posts.list({ userId, ...request });
      return toListResult({ ctx, path: `/users/${userId}/posts`, page, request, toItem: toPost });
    },
    'posts.create': async (ctx) => {
      const userId = await requireUser(ctx);
      const input = ctx.body as { title: string; body: string };
      const post = await posts.create({ userId, title: input.title, body: input.body, at: new Date(clock.now()).toISOString() });
      if (!post) throw notFound('user', userId);
      return { status: 201, body: toPost(post), location: `/users/${userId}/posts/${post.id}` };
    },
    'posts.get': async (ctx) => {
      const userId = await requireUser(ctx);
      const postId = parseId({ raw: ctx.params.postId, what: 'post' });
      const post = await posts.get({ userId, postId });
      if (!post) throw notFound('post', postId);
      return { status: 200, body: toPost(post) };
    },
    'posts.delete': async (ctx) => {
      const userId = await requireUser(ctx);
      const postId = parseId({ raw: ctx.params.postId, what: 'post' });
      if (!(await posts.delete({ userId, postId }))) throw notFound('post', postId);
      return { status: 204 };
    },
  };
}

function toPost(post: PostRecord): Record<string, unknown> {
  return { id: post.id, userId: post.userId, title: post.title, body: post.body, createdAt: post.createdAt };
}
