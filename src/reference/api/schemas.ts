import { ref, type SchemaMap } from '../../core/versions/index.ts';
import { emailPattern, emailRule } from '../../core/text/email.ts';
import { freeTextPattern } from '../../core/text/free-text.ts';
import { maxPageSize } from '../../kernel/app/page.ts';

// Free text refuses U+0000 (a 400), as every JSON body does: each field says so with its pattern.
const name = { type: 'string', minLength: 1, maxLength: 200, pattern: freeTextPattern } as const;
const email = { type: 'string', pattern: emailPattern, maxLength: 254, description: emailRule } as const;
const shownName = { type: 'string', minLength: 1, maxLength: 100, pattern: freeTextPattern } as const;
const nickname = {
  ...shownName,
  description: 'The name shown for the user. Same value as `displayName`, its new name in v2.',
} as const;
const displayName = {
  ...shownName,
  description: 'The name shown for the user; takes the place of `nickname`. A request that sends both keeps this one.',
} as const;
const status = { type: 'string', enum: ['active', 'inactive', 'pending'] } as const;
/** Ids are positive integers of at most 15 digits (exact in JSON numbers); the path accepts the same. */
export const idSchema = { type: 'integer', format: 'int64', minimum: 1, maximum: 999_999_999_999_999 } as const;
const id = idSchema;
const revision = {
  type: 'integer',
  format: 'int64',
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'Revision of the user, bumped on every change.',
} as const;
const userProperties = { id, name, email, nickname, displayName, status };

/** The newest representation of every resource; older versions derive from it (`./versions`). */
export const headSchemas = {
  User: { type: 'object', required: ['id', 'name', 'status'], properties: userProperties },
  UserDetail: {
    type: 'object',
    required: ['id', 'name', 'status', '_version'],
    properties: { ...userProperties, _version: revision },
  },
  UserInput: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: { name, email, nickname, displayName, status },
  },
  UserPatch: {
    type: 'object',
    additionalProperties: false,
    description: 'A JSON Merge Patch (RFC 7396): null clears an optional field.',
    properties: {
      name,
      email: { type: ['string', 'null'], pattern: emailPattern, maxLength: 254, description: emailRule },
      nickname: { ...shownName, type: ['string', 'null'] },
      displayName: { ...shownName, type: ['string', 'null'] },
      status,
    },
  },
  PageMeta: {
    type: 'object',
    required: ['limit', 'nextCursor', 'next'],
    properties: {
      limit: { type: 'integer', format: 'int32', minimum: 1, maximum: maxPageSize },
      nextCursor: {
        type: ['string', 'null'],
        pattern: '^[A-Za-z0-9_-]+$',
        maxLength: 200,
        description: 'Pass as `cursor` to get the next page; null on the last page.',
      },
      next: {
        type: ['string', 'null'],
        format: 'uri-reference',
        maxLength: 4000,
        description: 'URL of the next page; null on the last page.',
      },
    },
  },
  UserList: {
    type: 'object',
    required: ['data', 'meta'],
    properties: { data: { type: 'array', maxItems: maxPageSize, items: ref('User') }, meta: ref('PageMeta') },
  },
  Post: {
    type: 'object',
    required: ['id', 'userId', 'title', 'body', 'createdAt'],
    properties: {
      id,
      userId: id,
      title: { type: 'string', maxLength: 300, pattern: freeTextPattern },
      body: { type: 'string', maxLength: 20000, pattern: freeTextPattern },
      createdAt: { type: 'string', format: 'date-time', maxLength: 40 },
    },
  },
  PostInput: {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'body'],
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 300, pattern: freeTextPattern },
      body: { type: 'string', maxLength: 20000, pattern: freeTextPattern },
    },
  },
  PostList: {
    type: 'object',
    required: ['data', 'meta'],
    properties: { data: { type: 'array', maxItems: maxPageSize, items: ref('Post') }, meta: ref('PageMeta') },
  },
} as const satisfies SchemaMap;
