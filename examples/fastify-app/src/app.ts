import Fastify, { type FastifyInstance } from 'fastify';
import { VersionaryError, ErrorCode } from 'versionary';
import { defineHandlers, versionary, versionRewriter } from 'versionary/fastify';
import { bundle, lifecycle } from './api.js';

interface Book { id: number; title: string; author: string; isbn?: string }

export async function buildApp(): Promise<FastifyInstance> {
  const books = new Map<number, Book>([[1, { id: 1, title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', isbn: '978-0-441-47812-5' }]]);
  const find = (id: string): Book => {
    const book = books.get(Number(id));
    if (!book) throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No book ${id}.` });
    return book;
  };
  // One handler per operation, in the newest representation; Versionary derives v1.
  const handlers = defineHandlers({
    'books.list': async () => ({ status: 200, body: [...books.values()] }),
    'books.get': async ({ params }) => ({ status: 200, body: find(params.id!) }),
    'books.create': async ({ body }) => {
      const book = { ...(body as Omit<Book, 'id'>), id: books.size + 1 };
      books.set(book.id, book);
      return { status: 201, body: book, location: `/books/${book.id}` };
    },
    'books.blurb': async ({ params }) => {
      const book = find(params.id!);
      return { status: 200, body: { text: `${book.title}, by ${book.author}.` } };
    },
  });

  // Accept negotiation (`Accept: application/vnd.books+json; version=2` on /api/books) needs the rewriter.
  const app = Fastify({ rewriteUrl: versionRewriter({ bundle, vendor: 'books' }) });
  await app.register(versionary, {
    bundle, handlers, vendor: 'books', lifecycle,
    openapi: { title: 'Books API' },
    onUsage: (call) => app.log.info(call, 'deprecated call'),
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  return app;
}
