/**
 * The peer (p): `GET /api/v2/users/:id` (and a list) written by hand on Fastify, the way a team
 * would write it without Versionary. Pino at `warn`; `@fastify/rate-limit` keyed by the API key's
 * id, else the address; an `onRequest` hook that hashes the bearer key with SHA-256 and looks it up
 * in SQLite on every request (no cache), 401 when unknown; a params and a response schema; one
 * SQLite point read on the driver the service uses on this Node line; `ETag` and `Cache-Control`;
 * a prom-client histogram by method, route and status in `onResponse`. Speaks `protocol.ts`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Histogram, Registry } from 'prom-client';
import { serveIpc } from './child.ts';
import { seededUser } from './protocol.ts';
import { built } from './built.ts';

const { defaultSqliteDriver, openSqliteDriver } =
  await built<typeof import('../../src/storage/sqlite/sqlite-driver.ts')>('storage/sqlite/sqlite-driver');

const path = process.env.BENCH_DB ?? ':memory:';
const db = openSqliteDriver({ driver: defaultSqliteDriver(), path });
db.exec(`PRAGMA journal_mode = WAL;
  CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, nickname TEXT, status TEXT NOT NULL, revision INTEGER NOT NULL);
  CREATE TABLE api_keys (id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, revoked_at TEXT)`);
const insert = db.prepare(
  'INSERT INTO users (id, name, email, nickname, status, revision) VALUES (?, ?, ?, NULL, ?, 1)',
);
const seed = Number(process.env.BENCH_SEED ?? '1000');
db.exec('BEGIN');
for (let n = 1; n <= seed; n++) insert.run([n, seededUser(n).name, seededUser(n).email, 'active']);
db.exec('COMMIT');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const key = `vk_bench.${randomBytes(24).toString('base64url')}`;
db.prepare('INSERT INTO api_keys (id, hash, revoked_at) VALUES (?, ?, NULL)').run(['key_bench', sha256(key)]);

const findKey = db.prepare('SELECT id FROM api_keys WHERE hash = ? AND revoked_at IS NULL');
const findUser = db.prepare('SELECT id, name, email, nickname, status, revision FROM users WHERE id = ?');
const listUsers = db.prepare('SELECT id, name FROM users WHERE id > ? ORDER BY id LIMIT ?');

const registry = new Registry();
const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Request duration',
  labelNames: ['method', 'route', 'status'],
  registers: [registry],
});

declare module 'fastify' {
  interface FastifyRequest {
    keyId?: string;
  }
}

const app = Fastify({ logger: { level: 'warn' } });
await app.register(rateLimit, {
  max: 100_000_000,
  timeWindow: 60_000,
  keyGenerator: (request) => request.keyId ?? request.ip,
  hook: 'preHandler',
});
app.addHook('onRequest', async (request, reply) => {
  const header = request.headers.authorization;
  const row = header?.startsWith('Bearer ')
    ? (findKey.get!([sha256(header.slice(7))]) as { id: string } | undefined)
    : undefined;
  if (!row) return reply.code(401).send({ title: 'Unauthorized', status: 401 });
  request.keyId = row.id;
});
app.addHook('onResponse', async (request, reply) => {
  duration.observe(
    { method: request.method, route: request.routeOptions.url ?? 'unknown', status: reply.statusCode },
    reply.elapsedTime / 1000,
  );
});

const user = {
  type: 'object',
  required: ['id', 'name', 'status'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: ['string', 'null'] },
    nickname: { type: ['string', 'null'] },
    status: { type: 'string' },
    _version: { type: 'integer' },
  },
};
const problem = { type: 'object', properties: { title: { type: 'string' }, status: { type: 'integer' } } };

app.get(
  '/api/v2/users/:id',
  {
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
      response: { 200: user, 404: problem },
    },
  },
  async (request, reply) => {
    const row = findUser.get!([(request.params as { id: number }).id]) as
      | { id: number; name: string; email: string | null; nickname: string | null; status: string; revision: number }
      | undefined;
    if (!row) return reply.code(404).send({ title: 'Not found', status: 404 });
    reply.header('etag', `"${row.id}-${row.revision}"`).header('cache-control', 'private, no-cache');
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      nickname: row.nickname,
      status: row.status,
      _version: row.revision,
    };
  },
);

// The list variant of (d): a page of `id` and `name`, with the cursor of the next page.
app.get(
  '/api/v2/users',
  {
    schema: {
      querystring: {
        type: 'object',
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          after: { type: 'integer', minimum: 0, default: 0 },
          fields: { type: 'string' },
        },
      },
      response: {
        200: {
          type: 'object',
          properties: {
            data: {
              type: 'array',
              items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
            },
            meta: {
              type: 'object',
              properties: { limit: { type: 'integer' }, nextCursor: { type: ['string', 'null'] } },
            },
          },
        },
      },
    },
  },
  async (request, reply) => {
    const { limit, after } = request.query as { limit: number; after: number };
    const rows = listUsers.all([after, limit + 1]) as Array<{ id: number; name: string }>;
    const data = rows.slice(0, limit);
    reply.header('cache-control', 'private, no-cache');
    return { data, meta: { limit, nextCursor: rows.length > limit ? String(data.at(-1)!.id) : null } };
  },
);

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
serveIpc({
  port: typeof address === 'object' && address ? address.port : 0,
  keys: { bench: key },
  stop: async () => {
    await app.close();
    db.close();
    if (path !== ':memory:') for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  },
});
