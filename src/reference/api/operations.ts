import type { JsonSchema, OperationSpec } from '../../core/versions/index.ts';
import { maxPageSize } from '../../kernel/app/page.ts';
import { idSchema } from './schemas.ts';

const fields = {
  type: 'string',
  maxLength: 1000,
  description:
    'Comma-separated field names to return (partial response), e.g. `id,name`. Objects then carry only those members.',
} as const;
const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: {
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: maxPageSize,
      default: 20,
      description: `Page size, 1 to ${maxPageSize} (default 20).`,
    },
    cursor: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]+$',
      maxLength: 200,
      description: 'Opaque cursor from `meta.nextCursor` or the `Link: rel="next"` header.',
    },
    fields,
  },
} as const satisfies JsonSchema;
const userParams = {
  type: 'object',
  properties: {
    id: { ...idSchema, description: 'The user id. A path segment that is not a positive integer names no user: 404.' },
  },
} as const satisfies JsonSchema;
const postParams = {
  type: 'object',
  properties: {
    ...userParams.properties,
    postId: {
      ...idSchema,
      description: 'The post id. A path segment that is not a positive integer names no post: 404.',
    },
  },
} as const satisfies JsonSchema;
const singleQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { fields },
} as const satisfies JsonSchema;
const none = { type: 'object', additionalProperties: false } as const satisfies JsonSchema;

const common = {
  400: { description: 'Bad request: an unknown or invalid query parameter, body or header' },
  404: { description: 'No resource at this path: no such id, or an id that is not a positive integer' },
} as const;
const conflict = { description: 'The user kept changing while the write ran; retry' } as const;
const write = {
  ...common,
  412: { description: 'If-Match names no current revision' },
  415: { description: 'The body is not of a media type this operation takes' },
} as const;

/** Every operation of the users-and-posts API, `as const` so each handler is typed from it. */
export const headOperations = [
  {
    id: 'users.list',
    method: 'GET',
    path: '/users',
    summary: 'List users',
    tags: ['users'],
    query: listQuery,
    partial: 'User',
    responses: { 200: { description: 'A page of users', schema: 'UserList', headers: ['Link?'] }, 400: common[400] },
  },
  {
    id: 'users.create',
    method: 'POST',
    path: '/users',
    summary: 'Create a user',
    tags: ['users'],
    query: none,
    body: 'UserInput',
    responses: {
      201: { description: 'Created', schema: 'UserDetail', headers: ['Location', 'ETag'] },
      400: common[400],
      415: write[415],
    },
  },
  {
    id: 'users.get',
    method: 'GET',
    path: '/users/{id}',
    summary: 'Get a user',
    tags: ['users'],
    params: userParams,
    query: singleQuery,
    partial: 'UserDetail',
    responses: { 200: { description: 'The user', schema: 'UserDetail' }, ...common },
  },
  {
    id: 'users.replace',
    method: 'PUT',
    path: '/users/{id}',
    summary: 'Replace a user',
    tags: ['users'],
    params: userParams,
    query: none,
    body: 'UserInput',
    responses: {
      200: { description: 'The replaced user', schema: 'UserDetail', headers: ['ETag'] },
      ...write,
      409: conflict,
    },
  },
  {
    id: 'users.patch',
    method: 'PATCH',
    path: '/users/{id}',
    summary: 'Update a user with a JSON Merge Patch',
    tags: ['users'],
    params: userParams,
    query: none,
    body: 'UserPatch',
    bodyTypes: ['application/merge-patch+json'],
    responses: {
      200: { description: 'The updated user', schema: 'UserDetail', headers: ['ETag'] },
      ...write,
      409: conflict,
    },
  },
  {
    id: 'users.delete',
    method: 'DELETE',
    path: '/users/{id}',
    summary: 'Delete a user and their posts',
    tags: ['users'],
    params: userParams,
    query: none,
    responses: { 204: { description: 'Deleted' }, 404: common[404], 412: write[412] },
  },
  {
    id: 'posts.list',
    method: 'GET',
    path: '/users/{id}/posts',
    summary: "List a user's posts",
    tags: ['posts'],
    params: userParams,
    query: listQuery,
    partial: 'Post',
    responses: { 200: { description: 'A page of posts', schema: 'PostList', headers: ['Link?'] }, ...common },
  },
  {
    id: 'posts.create',
    method: 'POST',
    path: '/users/{id}/posts',
    summary: 'Create a post',
    tags: ['posts'],
    params: userParams,
    query: none,
    body: 'PostInput',
    responses: { 201: { description: 'Created', schema: 'Post', headers: ['Location'] }, ...common, 415: write[415] },
  },
  {
    id: 'posts.get',
    method: 'GET',
    path: '/users/{id}/posts/{postId}',
    summary: 'Get a post',
    tags: ['posts'],
    params: postParams,
    query: singleQuery,
    partial: 'Post',
    responses: { 200: { description: 'The post', schema: 'Post' }, ...common },
  },
  {
    id: 'posts.delete',
    method: 'DELETE',
    path: '/users/{id}/posts/{postId}',
    summary: 'Delete a post',
    tags: ['posts'],
    params: postParams,
    query: none,
    responses: { 204: { description: 'Deleted' }, 404: common[404] },
  },
] as const satisfies readonly OperationSpec[];
