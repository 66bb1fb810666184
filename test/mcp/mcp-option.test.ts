import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { describe, it } from 'node:test';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { bookHandlers, booksBundle } from '../loop/books.ts';
import { assertProblem } from '../support/assertions.ts';

const adminKey = 'mcp-option-admin-key-0123456789';
const options = {
  bundle: booksBundle,
  vendor: 'books',
  title: 'Books API',
  database: 'sqlite::memory:',
  env: { VERSIONARY_ADMIN_KEY: adminKey },
  handlers: bookHandlers,
};
const initialize = {
  method: 'POST' as const,
  url: '/admin/mcp',
  headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
  payload: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
};

describe('the loop option mcp', () => {
  it('is on by default: /admin/mcp wants credentials like every route of the management part', async () => {
    const app = Fastify(loopServerOptions(options));
    await app.register(versionaryLoop, options);
    try {
      assertProblem(await app.inject(initialize), { status: 401, code: 'UNAUTHENTICATED' });
    } finally {
      await app.close();
    }
  });

  it('mcp: false leaves /admin/mcp out (404), and the management API in', async () => {
    const app = Fastify(loopServerOptions(options));
    await app.register(versionaryLoop, { ...options, mcp: false });
    const admin = { authorization: `Bearer ${adminKey}` };
    try {
      assertProblem(await app.inject({ ...initialize, headers: { ...initialize.headers, ...admin } }), {
        status: 404,
      });
      assert.equal((await app.inject({ url: '/admin/v1/versions', headers: admin })).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  it('a value that is not a boolean is an error of the options, named', async () => {
    const app = Fastify(loopServerOptions(options));
    void app.register(versionaryLoop, { ...options, mcp: 'no' } as never);
    await assert.rejects(
      async () => app.ready(),
      (error: Error) => /mcp must be a boolean/.test(error.message),
    );
  });
});
