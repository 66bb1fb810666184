import type { Clock } from '../../core/clock/index.ts';
import type { ComponentType, HandlerMap, OperationContext } from '../../http/index.ts';
import type { ApiHead } from '../api/index.ts';
import type { PostRecord, PostStore, UserStore } from '../../kernel/ports/index.ts';
import { toListResult } from './paging.ts';
import { notFound, parseId, parsePage } from './params.ts';
import { isVisible, ownerScopeOf } from '../../loop/management/clients/tenancy.ts';

type PostHandlers = Pick<HandlerMap<ApiHead>, `posts.${'list' | 'get' | 'create' | 'delete'}`>;

export function createPostHandlers({
  users,
  posts,
  clock,
}: {
  users: UserStore;
  posts: PostStore;
  clock: Clock;
}): PostHandlers {
  // Posts belong to their user's owner: a user another client owns is 404, and so are its posts.
  const requireUser = async (ctx: Pick<OperationContext, 'request'> & { params: { id: string } }) => {
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
      const post = await posts.create({
        userId,
        title: ctx.body.title,
        body: ctx.body.body,
        at: new Date(clock.now()).toISOString(),
      });
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
  } satisfies Partial<HandlerMap<ApiHead>>;
}

function toPost(post: PostRecord): ComponentType<ApiHead, 'Post'> {
  return { id: post.id, userId: post.userId, title: post.title, body: post.body, createdAt: post.createdAt };
}
