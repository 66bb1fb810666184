import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { after, describe, it } from 'node:test';
import { versionary, versionRewriter } from '../../src/http/plugin/index.ts';
import { loopServerOptions, versionaryLoop } from '../../src/loop/index.ts';
import { docBlocks } from '../support/doc-blocks.ts';
import { bookHandlers, booksBundle } from './books.ts';

const day = 86_400_000;
const adminKey = 'doc-admin-key-0123456789';
// The loop asks every call for credentials; the plugin ignores them.
const authorization = `Bearer ${adminKey}`;
const path = new URL('../../docs/loop.md', import.meta.url).pathname;
const title = '## From the plugin to the loop';

/** The fenced `js` blocks of docs/loop.md's section on moving from the plugin, in order. */
function sectionBlocks(): string[] {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(`\n${title}\n`);
  assert.ok(start >= 0, `docs/loop.md has a section "${title}"`);
  const end = text.indexOf('\n## ', start + title.length + 2);
  const section = text.slice(start, end === -1 ? undefined : end);
  return docBlocks(path, section)
    .filter((b) => b.lang === 'js')
    .map((b) => b.code);
}

/**
 * Run a block as the user pastes it, its imports given in scope (the source of the package's
 * `versionary/fastify` and `versionary/loop`), with the app's bundle, handlers and lifecycle.
 */
async function run(code: string): Promise<FastifyInstance> {
  const body = `${code.replace(/^import [^;]+;$/gm, '')}\nreturn app;`;
  const scope = {
    Fastify,
    versionary,
    versionRewriter,
    loopServerOptions,
    versionaryLoop,
    bundle: booksBundle,
    handlers: bookHandlers,
    lifecycle: {
      versions: {
        v1: {
          deprecatedAt: new Date(Date.now() - 30 * day).toISOString(),
          sunsetAt: new Date(Date.now() + 400 * day).toISOString(),
          replacement: 'v2',
        },
        v2: {},
      },
    },
    process: { env: { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', VERSIONARY_ADMIN_KEY: adminKey } },
  };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<FastifyInstance>;
  return new AsyncFunction(...Object.keys(scope), body)(...Object.values(scope));
}

// docs/loop.md shows an app on the plugin and the same app on the loop: both blocks run as
// written, and the app answers its versions the same way, by path and by Accept, deprecation included.
describe('docs/loop.md: from the plugin to the loop', () => {
  const apps: FastifyInstance[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  it('before (versionRewriter + versionary) and after (loopServerOptions + versionaryLoop) both serve v1 and v2', async () => {
    const blocks = sectionBlocks();
    assert.equal(blocks.length, 2, 'a before and an after');
    assert.match(blocks[0]!, /versionRewriter\(/);
    assert.match(blocks[0]!, /register\(versionary,/);
    assert.match(blocks[1]!, /loopServerOptions\(/);
    assert.match(blocks[1]!, /register\(versionaryLoop,/);
    for (const code of blocks) {
      const app = await run(code);
      apps.push(app);
      await app.ready();
      const v1 = await app.inject({ url: '/api/v1/books', headers: { authorization } });
      assert.equal(v1.statusCode, 200, v1.body);
      assert.ok(v1.headers.deprecation, 'v1 is deprecated by the lifecycle');
      const negotiated = await app.inject({
        url: '/api/books',
        headers: { accept: 'application/vnd.books+json; version=2', authorization },
      });
      assert.equal(negotiated.statusCode, 200, negotiated.body);
      assert.ok((JSON.parse(negotiated.body) as Array<{ isbn?: string }>)[0]!.isbn, 'v2 has the isbn');
    }
  });
});
