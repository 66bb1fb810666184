// The gateway bench's floor (r): Fastify with @fastify/reply-from and nothing else, the same undici
// pool the gateway uses. Usage: node bare-proxy.mjs <port> <upstream origin>.
import Fastify from 'fastify';
import replyFrom from '@fastify/reply-from';

const app = Fastify();
await app.register(replyFrom, {
  base: process.argv[3],
  disableRequestLogging: true,
  retryMethods: [],
  undici: { connections: 128, pipelining: 1, keepAliveTimeout: 60_000 },
});
app.get('/api/:version/users/:id', (request, reply) => reply.from(request.url));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
