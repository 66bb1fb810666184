import { defineVersionChange, defineVersions, fieldAdded, ref, type LifecycleConfig, type OperationSpec, type SchemaMap } from 'versionary';

// The newest representation: handlers are written against it only.
const schemas: SchemaMap = {
  Book: {
    type: 'object', required: ['id', 'title', 'author'],
    properties: { id: { type: 'integer' }, title: { type: 'string' }, author: { type: 'string' }, isbn: { type: 'string' } },
  },
  BookInput: {
    type: 'object', additionalProperties: false, required: ['title', 'author'],
    properties: { title: { type: 'string', minLength: 1 }, author: { type: 'string', minLength: 1 }, isbn: { type: 'string', pattern: '^[0-9-]{10,17}$' } },
  },
  BookList: { type: 'array', items: ref('Book') },
  Blurb: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
};

const none = { type: 'object', additionalProperties: false };
const operations: OperationSpec[] = [
  { id: 'books.list', method: 'GET', path: '/books', summary: 'List books', query: none, responses: { 200: { description: 'Books', schema: 'BookList' } } },
  { id: 'books.get', method: 'GET', path: '/books/{id}', summary: 'Get a book', query: none, responses: { 200: { description: 'The book', schema: 'Book' }, 404: { description: 'No such book' } } },
  { id: 'books.create', method: 'POST', path: '/books', summary: 'Add a book', query: none, body: 'BookInput', responses: { 201: { description: 'Added', schema: 'Book' } } },
  { id: 'books.blurb', method: 'GET', path: '/books/{id}/blurb', summary: 'A one-line blurb (deprecated)', query: none, responses: { 200: { description: 'The blurb', schema: 'Blurb' } } },
];

// v1 → v2: books gain an ISBN. v1 clients never see it and cannot send it.
const isbn = defineVersionChange({
  description: 'Books gain an optional `isbn`, in requests and responses.',
  instructions: [fieldAdded('Book', 'isbn'), fieldAdded('BookInput', 'isbn')],
});

export const bundle = defineVersions({ head: { schemas, operations }, versions: [{ name: 'v1' }, { name: 'v2', changes: [isbn] }] });

// v0 (the preview) is gone: it answers 410. v1 is deprecated with a sunset. In v2 one endpoint is deprecated.
export const lifecycle = {
  versions: {
    v0: { releasedAt: '2024-01-15', deprecatedAt: '2024-07-01', sunsetAt: '2025-01-15', removed: true, migrationUrl: 'https://books.example/docs/v0-to-v1' },
    v1: { releasedAt: '2025-01-15', deprecatedAt: '2026-06-01', sunsetAt: '2030-06-30', migrationUrl: 'https://books.example/docs/v1-to-v2' },
    v2: { releasedAt: '2026-06-01' },
  },
  endpoints: [
    { version: 'v2', method: 'GET', path: '/books/{id}/blurb', deprecatedAt: '2026-09-01', sunsetAt: '2030-12-31', migrationUrl: 'https://books.example/docs/blurbs' },
  ],
} satisfies LifecycleConfig;
