import type { JsonSchema, OperationSpec } from '../../core/versions/index.ts';

const fields = { type: 'string', maxLength: 1000, description: 'Comma-separated field names to return (partial response), e.g. `id,name`.' };
const listQuery: JsonSchema = {
  type: 'object', additionalProperties: false,
  properties: {
    limit: { type: 'string', pattern: '^[0-9]{1,4}$', description: 'Page size, 1 to 100 (default 20).' },
    cursor: { type: 'string', maxLength: 200, description: 'Opaque cursor from `meta.nextCursor` or the `Link: rel="next"` header.' },
    fields,
  },
};
const singleQuery: JsonSchema = { type: 'object', additionalProperties: false, properties: { fields } };
const none: JsonSchema = { type: 'object', additionalProperties: false };

const common = { 400: { description: 'Bad request' }, 404: { description: 'Not found' } };
const write = { ...common, 412: { description: 'If-Match is stale' }, 415: { description: 'Unsupported media type' } };

/**
 * Every operation of the users-and-posts API, declared once against the newest representation.
 *
 * @example
 * ```ts
 * headOperations.find((op) => op.id === 'users.get')
 * ```
 */
export const headOperations: OperationSpec[] = [
  { id: 'users.list', method: 'GET', path: '/users', summary: 'List users', tags: ['users'], query: listQuery, partial: 'User', responses: { 200: { description: 'A page of users', schema: 'UserList' }, 400: common[400] } },
  { id: 'users.create', method: 'POST', path: '/users', summary: 'Create a user', tags: ['users'], query: none, body: 'UserInput', responses: { 201: { description: 'Created', schema: 'UserDetail' }, 400: common[400], 415: write[415] } },
  { id: 'users.get', method: 'GET', path: '/users/{id}', summary: 'Get a user', tags: ['users'], query: singleQuery, partial: 'UserDetail', responses: { 200: { description: 'The user', schema: 'UserDetail' }, ...common } },
  { id: 'users.replace', method: 'PUT', path: '/users/{id}', summary: 'Replace a user', tags: ['users'], query: none, body: 'UserInput', responses: { 200: { description: 'The replaced user', schema: 'UserDetail' }, ...write } },
  { id: 'users.patch', method: 'PATCH', path: '/users/{id}', summary: 'Update a user with a JSON Merge Patch', tags: ['users'], query: none, body: 'UserPatch', bodyTypes: ['application/merge-patch+json'], responses: { 200: { description: 'The updated user', schema: 'UserDetail' }, ...write } },
  { id: 'users.delete', method: 'DELETE', path: '/users/{id}', summary: 'Delete a user and their posts', tags: ['users'], query: none, responses: { 204: { description: 'Deleted' }, 404: common[404], 412: write[412] } },
  { id: 'posts.list', method: 'GET', path: '/users/{id}/posts', summary: "List a user's posts", tags: ['posts'], query: listQuery, partial: 'Post', responses: { 200: { description: 'A page of posts', schema: 'PostList' }, ...common } },
  { id: 'posts.create', method: 'POST', path: '/users/{id}/posts', summary: 'Create a post', tags: ['posts'], query: none, body: 'PostInput', responses: { 201: { description: 'Created', schema: 'Post' }, ...common, 415: write[415] } },
  { id: 'posts.get', method: 'GET', path: '/users/{id}/posts/{postId}', summary: 'Get a post', tags: ['posts'], query: singleQuery, partial: 'Post', responses: { 200: { description: 'The post', schema: 'Post' }, ...common } },
  { id: 'posts.delete', method: 'DELETE', path: '/users/{id}/posts/{postId}', summary: 'Delete a post', tags: ['posts'], query: none, responses: { 204: { description: 'Deleted' }, 404: common[404] } },
];
