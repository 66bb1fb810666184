// The derived-version bench's upstream: plain node:http answering GET /api/v2/users with a page of
// 20 users (about 2 KB) from memory, so that what the bench measures is the gateway in front of it.
// Usage: node list-upstream.mjs <port>.
import { createServer } from 'node:http';

const users = Array.from({ length: 20 }, (_, i) => ({
  id: i + 1,
  name: `User number ${i + 1}`,
  email: `user${i + 1}@example.com`,
  status: i % 3 === 0 ? 'pending' : 'active',
}));
const body = JSON.stringify({ data: users, meta: { next: null } });
const server = createServer((request, response) => {
  if (request.url !== '/api/v2/users' || request.method !== 'GET') {
    response.writeHead(404, { 'content-type': 'application/json' });
    return void response.end('{"error":"not here"}');
  }
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('ready\n'));
