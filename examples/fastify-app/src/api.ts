import {
  defineVersionChange,
  defineVersions,
  fieldAdded,
  fieldRemoved,
  ref,
  type OperationSpec,
  type SchemaMap,
} from 'versionary';

// The newest representation: handlers are written against it only, and typed from it (`as const`).
const schemas = {
  Book: {
    type: 'object',
    required: ['id', 'title', 'authorName'],
    properties: {
      id: { type: 'integer' },
      title: { type: 'string' },
      authorName: { type: 'string' },
      isbn: { type: 'string' },
    },
  },
  BookInput: {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'authorName'],
    properties: {
      title: { type: 'string', minLength: 1 },
      authorName: { type: 'string', minLength: 1 },
      isbn: { type: 'string', pattern: '^[0-9-]{10,17}$' },
    },
  },
  BookList: { type: 'array', items: ref('Book') },
  Blurb: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
} as const satisfies SchemaMap;

const none = { type: 'object', additionalProperties: false } as const;
const operations = [
  {
    id: 'books.list',
    method: 'GET',
    path: '/books',
    summary: 'List books',
    query: none,
    responses: { 200: { description: 'Books', schema: 'BookList' } },
  },
  {
    id: 'books.get',
    method: 'GET',
    path: '/books/{id}',
    summary: 'Get a book',
    query: none,
    responses: { 200: { description: 'The book', schema: 'Book' }, 404: { description: 'No such book' } },
  },
  {
    id: 'books.create',
    method: 'POST',
    path: '/books',
    summary: 'Add a book',
    query: none,
    body: 'BookInput',
    responses: { 201: { description: 'Added', schema: 'Book' } },
  },
  {
    id: 'books.blurb',
    method: 'GET',
    path: '/books/{id}/blurb',
    summary: 'A one-line blurb (deprecated)',
    query: none,
    responses: { 200: { description: 'The blurb', schema: 'Blurb' } },
  },
] as const satisfies readonly OperationSpec[];

// v1 → v2: books gain an ISBN. v1 clients never see it and cannot send it.
const isbn = defineVersionChange({
  description: 'Books gain an optional `isbn`, in requests and responses.',
  instructions: [fieldAdded('Book', 'isbn'), fieldAdded('BookInput', 'isbn')],
});

// v1 → v2: `author` is renamed `authorName`. Each migration sets the other version's name from its
// own; each version's schema then drops the name it lacks (docs/api.md, "Recipes").
const authorName = defineVersionChange({
  description: '`author` is renamed `authorName`, in requests and responses.',
  instructions: [
    fieldAdded('Book', 'authorName'),
    fieldRemoved({ schema: 'Book', field: 'author', definition: { type: 'string' }, required: true }),
    fieldAdded('BookInput', 'authorName'),
    fieldRemoved({
      schema: 'BookInput',
      field: 'author',
      definition: { type: 'string', minLength: 1 },
      required: true,
    }),
  ],
  responses: {
    Book: (body) => {
      const book = body as { authorName: string };
      return { ...book, author: book.authorName };
    },
  },
  requests: {
    BookInput: (body) => {
      const input = body as { author: string };
      return { ...input, authorName: input.author };
    },
  },
});

export const bundle = defineVersions({
  head: { schemas, operations },
  versions: [{ name: 'v1' }, { name: 'v2', changes: [isbn, authorName] }],
});

// The lifecycle, in the loop's settings: v0 (the preview) is gone and answers 410; v1 is deprecated
// with a sunset; in v2 one endpoint is deprecated. The loop stores it, and the management API
// (`/admin/v1/versions/...`) changes it at run time.
export const settings = {
  versions: {
    v0: {
      releasedAt: '2024-01-15T00:00:00Z',
      deprecatedAt: '2024-07-01T00:00:00Z',
      sunsetAt: '2025-01-15T00:00:00Z',
      removed: true,
      migrationUrl: 'https://books.example/docs/v0-to-v1',
    },
    v1: {
      releasedAt: '2025-01-15T00:00:00Z',
      deprecatedAt: '2026-06-01T00:00:00Z',
      sunsetAt: '2030-06-30T00:00:00Z',
      replacement: 'v2',
      migrationUrl: 'https://books.example/docs/v1-to-v2',
    },
    v2: { releasedAt: '2026-06-01T00:00:00Z' },
  },
  endpointDeprecations: [
    {
      version: 'v2',
      method: 'GET',
      path: '/books/{id}/blurb',
      deprecatedAt: '2026-09-01T00:00:00Z',
      sunsetAt: '2030-12-31T00:00:00Z',
      migrationUrl: 'https://books.example/docs/blurbs',
    },
  ],
};
