// The gateway bench's floors on undici's Pool.dispatch: (x) node:http and nothing else, and (xf)
// Fastify routing the same forwarder. Usage: node dispatch-proxy.mjs <port> <upstream origin> <http|fastify>.
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { Pool } from 'undici';

const pool = new Pool(process.argv[3], { connections: 128, pipelining: 1, keepAliveTimeout: 60_000 });

/** Forward one request: the body streams up, the answer streams down, headers pass as raw pairs. */
function forward(req, res) {
  const headers = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    if (name === 'connection' || name === 'keep-alive') continue;
    headers.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  const body = req.method === 'GET' || req.method === 'HEAD' ? null : req;
  pool.dispatch(
    { method: req.method, path: req.url, headers, body },
    {
      onConnect() {},
      onHeaders(status, raw, resume) {
        const out = [];
        for (let i = 0; i < raw.length; i += 2) {
          const name = raw[i].toString('latin1');
          const lower = name.toLowerCase();
          if (lower === 'connection' || lower === 'keep-alive' || lower === 'transfer-encoding') continue;
          out.push(name, raw[i + 1].toString('latin1'));
        }
        res.writeHead(status, out);
        res.on('drain', resume);
        return true;
      },
      onData(chunk) {
        return res.write(chunk);
      },
      onComplete() {
        res.end();
      },
      onError(error) {
        if (res.headersSent) res.destroy(error);
        else {
          res.writeHead(502, { 'content-type': 'application/problem+json' });
          res.end('{"status":502}');
        }
      },
    },
  );
}

const [, , port, , mode = 'http'] = process.argv;
if (mode === 'fastify') {
  const app = Fastify();
  app.get('/api/:version/users/:id', (request, reply) => {
    reply.hijack();
    forward(request.raw, reply.raw);
  });
  await app.listen({ port: Number(port), host: '127.0.0.1' });
} else {
  createServer(forward).listen(Number(port), '127.0.0.1');
}
