import Fastify from 'fastify';
import {
  createFixedClock,
  defineVersionChange,
  defineVersions,
  ErrorCode,
  fieldAdded,
  VersionaryError,
} from '../../../src/index.ts';
import { defineHandlers, versionary } from '../../../src/http/plugin/index.ts';

const isbn = defineVersionChange({
  description: 'Books gain an optional isbn.',
  instructions: [fieldAdded('Book', 'isbn')],
});
const bundle = defineVersions({
  head: {
    schemas: {
      Book: {
        type: 'object',
        required: ['id', 'title'],
        properties: { id: { type: 'integer' }, title: { type: 'string' }, isbn: { type: 'string' } },
      },
    },
    operations: [
      {
        id: 'books.get',
        method: 'GET',
        path: '/books/{id}',
        summary: 'Get a book',
        responses: { 200: { description: 'The book', schema: 'Book' }, 404: { description: 'No such book' } },
      },
    ],
  },
  versions: [{ name: 'v1' }, { name: 'v2', changes: [isbn] }],
});
const books = new Map([[1, { id: 1, title: 'Dune' }]]);

const handlers = defineHandlers(bundle, {
  'books.get': async ({ params }) => {
    const book = books.get(Number(params.id));
    // Thrown, not returned: `{ status: 404 }` would be a 404 with an empty body.
    if (!book) throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No book ${params.id}.` });
    return { status: 200, body: book };
  },
});

// A clock that stands where the test puts it: a month after v1's sunset, v1 answers 410.
export const clock = createFixedClock('2027-07-01');
export const app = Fastify();
await app.register(versionary, {
  bundle,
  handlers,
  vendor: 'books',
  clock,
  lifecycle: { versions: { v1: { deprecatedAt: '2026-06-01', sunsetAt: '2027-06-01' } } },
});
