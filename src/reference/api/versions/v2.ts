import {
  defineVersionChange,
  enumValuesAdded,
  fieldAdded,
  ref,
  isPlainObject,
  schemaReplaced,
  type VersionDeclaration,
} from '../../../core/versions/index.ts';
import { maxPageSize } from '../../../kernel/app/page.ts';

const userSchemas = ['User', 'UserDetail', 'UserInput', 'UserPatch'];

const contactFields = defineVersionChange({
  description:
    'Users gain two optional fields, `email` and `nickname`, in requests and responses. The single-user response also carries `_version`, the revision number that drives its ETag.',
  instructions: [
    ...userSchemas.flatMap((schema) => [fieldAdded(schema, 'email'), fieldAdded(schema, 'nickname')]),
    fieldAdded('UserDetail', '_version'),
  ],
});

const pendingStatus = defineVersionChange({
  description:
    'User `status` gains the value `pending`. Older versions show a pending user as `inactive`, the closest value they know, and cannot set it.',
  instructions: userSchemas.map((schema) =>
    enumValuesAdded({ schema, field: 'status', values: ['pending'], mapDownTo: { pending: 'inactive' } }),
  ),
});

const pagedListObjects = defineVersionChange({
  description:
    'List responses become objects: `data` holds the page of items and `meta` says how to reach the next page (`meta.next`, `meta.nextCursor`, and a `Link: rel="next"` header). Older versions receive the bare array of the same page, with the same Link header.',
  instructions: [
    schemaReplaced({ schema: 'UserList', previous: { type: 'array', maxItems: maxPageSize, items: ref('User') } }),
    schemaReplaced({ schema: 'PostList', previous: { type: 'array', maxItems: maxPageSize, items: ref('Post') } }),
  ],
  responses: {
    UserList: (body) => (isPlainObject(body) ? body.data : body),
    PostList: (body) => (isPlainObject(body) ? body.data : body),
  },
});

const displayNameField = defineVersionChange({
  description:
    'Users gain `displayName`, the new name of `nickname`: both carry the same value, and a request that sends both keeps `displayName`. This is the safe way to rename a field: `nickname` stays, can be deprecated in v2 (`fieldDeprecations`), and goes in the next version.',
  instructions: userSchemas.map((schema) => fieldAdded(schema, 'displayName')),
});

/** v2: contact fields, the `pending` status, paged list objects and `displayName`. */
export const v2: VersionDeclaration = {
  name: 'v2',
  changes: [contactFields, pendingStatus, pagedListObjects, displayNameField],
};
