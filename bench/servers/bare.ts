/**
 * The ceiling: a bare Fastify server that answers `GET /api/v2/users/:id` with the same JSON as the
 * service (a seeded user in its v2 representation), from memory, serialised through a response
 * schema. No auth, no rate limit, no database, no hooks. Speaks the protocol of `protocol.ts`.
 */
import Fastify from 'fastify';
import { serveIpc } from './child.ts';
import { seededUser } from './protocol.ts';

const users = new Map<number, Record<string, unknown>>();
const seed = Number(process.env.BENCH_SEED ?? '1000');
for (let n = 1; n <= seed; n++) users.set(n, { id: n, ...seededUser(n), status: 'active', _version: 1 });

const app = Fastify({ logger: false });
app.get(
  '/api/v2/users/:id',
  {
    schema: {
      response: {
        200: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            name: { type: 'string' },
            email: { type: 'string' },
            nickname: { type: 'string' },
            status: { type: 'string' },
            _version: { type: 'integer' },
          },
        },
        404: { type: 'object', properties: { title: { type: 'string' } } },
      },
    },
  },
  async (request, reply) => {
    const user = users.get(Number((request.params as { id: string }).id));
    if (!user) return reply.code(404).send({ title: 'Not found' });
    return user;
  },
);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
serveIpc({ port: typeof address === 'object' && address ? address.port : 0, stop: () => app.close() });
