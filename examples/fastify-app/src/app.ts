import Fastify, { type FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from 'versionary';
import { defineHandlers, type ComponentType } from 'versionary/fastify';
import { loopServerOptions, versionaryLoop } from 'versionary/loop';
import { bundle, settings } from './api.js';

// The type of the head's `Book` schema: { id: number; title: string; authorName: string; isbn?: string }.
type Book = ComponentType<typeof bundle, 'Book'>;

/** The books API with the whole deprecation loop, configured by `env` (see README.md). */
export async function buildApp(env: Record<string, string | undefined> = process.env): Promise<FastifyInstance> {
  const books = new Map<number, Book>([
    [1, { id: 1, title: 'The Left Hand of Darkness', authorName: 'Ursula K. Le Guin', isbn: '978-0-441-47812-5' }],
  ]);
  const find = (id: string): Book => {
    const book = books.get(Number(id));
    if (!book) throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No book ${id}.` });
    return book;
  };
  // One handler per operation, in the newest representation; Versionary derives v1. Each is typed
  // from its operation: `params.id`, the body of `books.create` and every result are checked by tsc.
  const handlers = defineHandlers(bundle, {
    'books.list': async () => ({ status: 200, body: [...books.values()] }),
    'books.get': async ({ params }) => ({ status: 200, body: find(params.id) }),
    'books.create': async ({ body }) => {
      const book: Book = { ...body, id: books.size + 1 };
      books.set(book.id, book);
      return { status: 201, body: book, location: `/books/${book.id}` };
    },
    'books.blurb': async ({ params }) => {
      const book = find(params.id);
      return { status: 200, body: { text: `${book.title}, by ${book.authorName}.` } };
    },
  });

  // Negotiation by Accept (`application/vnd.books+json; version=2` on /api/books) and strict
  // validation are construction options; the logger is the app's own.
  const app = Fastify({
    ...loopServerOptions({ bundle, vendor: 'books' }),
    logger: { level: env.LOG_LEVEL ?? 'info' },
  });
  await app.register(versionaryLoop, {
    bundle,
    handlers,
    vendor: 'books',
    title: 'Books API',
    settings,
    env: {
      ...env,
      DATABASE_URL: env.DATABASE_URL ?? `sqlite:${new URL('../data/books.db', import.meta.url).pathname}`,
    },
    publicUrl: env.VERSIONARY_PUBLIC_URL ?? `http://127.0.0.1:${env.PORT ?? 3000}`,
    onBootstrapKey: (key) =>
      app.log.warn(`created the first admin API key; it is shown only this once, store it now: ${key}`),
  });
  return app;
}
