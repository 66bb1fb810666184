// The loop's documents in OpenAPI 3.1 (the default, which Redocly and Spectral read) or, when the
// app asks, 3.2; a value other than those two is refused at registration.
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { describe, it } from 'node:test';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { booksBundle, booksLoop } from './books.ts';

const env = { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: 'loop-admin-key-0123456789' };

async function documentOf(extra: Record<string, unknown>): Promise<{ openapi: string }> {
  const app = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books' }) });
  try {
    await app.register(versionaryLoop, { ...booksLoop, env, ...extra });
    await app.ready();
    const res = await app.inject({ url: '/api/v2/openapi.json' });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  } finally {
    await app.close();
  }
}

describe('the loop’s OpenAPI version', () => {
  it('is 3.1 by default and 3.2 when asked', async () => {
    assert.equal((await documentOf({})).openapi, '3.1.0');
    assert.equal((await documentOf({ openapiVersion: '3.2' })).openapi, '3.2.0');
  });

  it('refuses any other value, saying which it takes', async () => {
    await assert.rejects(documentOf({ openapiVersion: '3.3' }), /openapiVersion.*must be "3\.1" or "3\.2"/s);
  });
});
