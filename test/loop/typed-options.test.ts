import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { bookHandlers, booksBundle } from './books.ts';

// The loop's options are typed: an app hands it its admin key, secrets and mail as values, and
// reads its own environment (or none); the same problems are named by the option, all at once.
const base = {
  bundle: booksBundle,
  vendor: 'books',
  title: 'Books API',
  database: 'sqlite::memory:',
  handlers: bookHandlers,
  portal: false,
  notices: false,
};

describe('the loop takes typed options', () => {
  it('serves the management API to the adminKey option, with no environment at all', async () => {
    const adminKey = 'typed-admin-key-0123456789';
    const app = Fastify({ ...loopServerOptions(base), logger: false });
    try {
      await app.register(versionaryLoop, { ...base, adminKey });
      const ok = await app.inject({ url: '/admin/v1/versions', headers: { authorization: `Bearer ${adminKey}` } });
      assert.equal(ok.statusCode, 200, ok.body);
      const refused = await app.inject({
        url: '/admin/v1/versions',
        headers: { authorization: 'Bearer not-the-key-0000000' },
      });
      assert.equal(refused.statusCode, 401, refused.body);
    } finally {
      await app.close();
    }
  });

  it('names every bad typed option at once, by its name', async () => {
    const app = Fastify({ ...loopServerOptions(base), logger: false });
    await assert.rejects(
      async () => {
        await app.register(versionaryLoop, {
          ...base,
          adminKey: 'short',
          noticeSecret: 'too short',
          redisUrl: 'http://cache:6379',
          smtp: { url: 'mail.example.com', from: 'notices@example.com' },
        });
        await app.ready();
      },
      (error: Error) => {
        for (const option of ['adminKey', 'noticeSecret', 'redisUrl', 'smtp.url'])
          assert.match(error.message, new RegExp(`\\b${option.replace('.', '\\.')}\\b`), error.message);
        assert.match(error.message, /4 error\(s\)/, error.message);
        return true;
      },
    );
    await app.close();
  });
});
