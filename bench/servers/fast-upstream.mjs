// The gateway bench's upstream: plain node:http answering GET /api/v<n>/users/<id> from memory, so
// that what the bench measures is the proxy in front of it. Usage: node fast-upstream.mjs <port>.
import { createServer } from 'node:http';

const bodies = {
  v1: (id) => JSON.stringify({ id, name: `User ${id}`, email: `user${id}@example.com` }),
  v2: (id) => JSON.stringify({ id, firstName: 'User', lastName: String(id), email: `user${id}@example.com` }),
};
const server = createServer((request, response) => {
  const match = /^\/api\/(v[12])\/users\/([0-9]+)$/.exec(request.url ?? '');
  if (!match || request.method !== 'GET') {
    response.writeHead(404, { 'content-type': 'application/json' });
    return void response.end('{"error":"not here"}');
  }
  const body = bodies[match[1]](Number(match[2]));
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
