/**
 * Case (a2): the library alone. The same `GET /api/{v1,v2}/users/:id` as the bare server, through
 * the Versionary Fastify plugin (`versionary/fastify`) with the service's version bundle and an
 * in-memory handler: version negotiation (path and `Accept`), parameter and query validation,
 * response migration down to v1, lifecycle headers (v1 deprecated with a sunset), the usage hook
 * (counting calls) and RFC 9457 problems. No auth, no storage, no rate limit, no logging.
 * Speaks the protocol of `protocol.ts`.
 */
import Fastify from 'fastify';
import type { OperationHandler } from '../../src/http/plugin/index.ts';
import { serveIpc } from './child.ts';
import { seededUser } from './protocol.ts';
import { built } from './built.ts';

const { VersionaryError, ErrorCode } =
  await built<typeof import('../../src/core/errors/index.ts')>('core/errors/index');
const { createApiBundle } = await built<typeof import('../../src/reference/api/index.ts')>('reference/api/index');
const { headOperations } =
  await built<typeof import('../../src/reference/api/operations.ts')>('reference/api/operations');
const { versionary, versionRewriter } =
  await built<typeof import('../../src/http/plugin/index.ts')>('http/plugin/index');

const bundle = createApiBundle();
const users = new Map<number, Record<string, unknown>>();
const seed = Number(process.env.BENCH_SEED ?? '1000');
// Optional fields are left out when unset, as the service's toUser does: `nickname: null` breaks the schema.
for (let n = 1; n <= seed; n++) users.set(n, { id: n, ...seededUser(n), status: 'active', _version: 1 });

const unused: OperationHandler = async () => {
  throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'Not part of this benchmark.' });
};
const handlers: Record<string, OperationHandler> = Object.fromEntries(headOperations.map((op) => [op.id, unused]));
handlers['users.get'] = async (ctx) => {
  const user = users.get(Number(ctx.params.id));
  if (!user) throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No user ${ctx.params.id}.` });
  return { status: 200, body: user, revision: user._version as number };
};

const page = [...users.values()].slice(0, 20).map(({ _version: _, ...user }) => user);
handlers['users.list'] = async () => ({
  status: 200,
  body: { data: page, meta: { limit: 20, nextCursor: null, next: null } },
});

let usageCalls = 0;
const app = Fastify({ logger: false, rewriteUrl: versionRewriter({ bundle, vendor: 'versionary' }) });
await app.register(versionary, {
  bundle,
  handlers,
  vendor: 'versionary',
  lifecycle: {
    versions: {
      v1: { deprecatedAt: '2026-01-01', sunsetAt: '2036-12-31', migrationUrl: 'https://example.com/docs/v1-to-v2' },
    },
  },
  openapi: false,
  onUsage: () => {
    usageCalls++;
  },
  // `BENCH_VALIDATE_RESPONSES=off` prices the response check (bench/responses.ts).
  validateResponses: process.env.BENCH_VALIDATE_RESPONSES !== 'off',
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
serveIpc({
  port: typeof address === 'object' && address ? address.port : 0,
  countUsers: () => Promise.resolve(usageCalls),
  stop: () => app.close(),
});
