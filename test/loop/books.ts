import {
  defineVersionChange,
  defineVersions,
  fieldAdded,
  ref,
  type OperationSpec,
  type SchemaMap,
} from '../../src/index.ts';
import type { OperationHandler } from '../../src/http/index.ts';

const schemas: SchemaMap = {
  Book: {
    type: 'object',
    required: ['id', 'title'],
    properties: { id: { type: 'integer' }, title: { type: 'string' }, isbn: { type: 'string' } },
  },
  BookList: { type: 'array', items: ref('Book') },
};
const none = { type: 'object', additionalProperties: false };
const operations: OperationSpec[] = [
  {
    id: 'books.list',
    method: 'GET',
    path: '/books',
    summary: 'List books',
    query: none,
    responses: { 200: { description: 'Books', schema: 'BookList' } },
  },
];
const isbn = defineVersionChange({
  description: 'Books gain an optional `isbn`.',
  instructions: [fieldAdded('Book', 'isbn')],
});

/** A small books API, v1 and v2, as a team outside the project would declare it. */
export const booksBundle = defineVersions({
  head: { schemas, operations },
  versions: [{ name: 'v1' }, { name: 'v2', changes: [isbn] }],
});

/** Its handlers, in the newest representation. */
export const bookHandlers: Record<string, OperationHandler> = {
  'books.list': async () => ({ status: 200, body: [{ id: 1, title: 'The Dispossessed', isbn: '978-0-06-051275-4' }] }),
};

/** The loop's options that say what the books API is: its bundle, handlers, vendor and title. */
export const booksLoop = { bundle: booksBundle, handlers: bookHandlers, vendor: 'books', title: 'Books API' };
