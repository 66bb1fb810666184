import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { loopServerOptions, versionaryLoop } from '../../src/loop/preset.ts';
import { booksBundle, booksLoop } from './books.ts';

const adminKey = 'loop-admin-key-0123456789';
const admin = { authorization: `Bearer ${adminKey}` };
const day = 86_400_000;

// An app of a team, with its own 404, errors, text parser and routes, as test/package/loop-in-its-lane.test.ts
// builds it from the tarball; here in process, so the contract is checked on every run of test/loop.
async function teamApp(withLoop: boolean): Promise<FastifyInstance> {
  const app = Fastify({ ...loopServerOptions({ bundle: booksBundle, vendor: 'books' }) });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ team: 'not found', url: request.url }));
  app.setErrorHandler((error: Error, _request, reply) =>
    reply.code(500).header('x-team', 'error').send({ team: 'error', message: error.message }),
  );
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) =>
    done(null, `note:${String(body)}`),
  );
  app.get('/health', async () => ({ ok: true }));
  app.post('/notes', async (request, reply) => reply.code(201).send({ saved: request.body }));
  app.get('/boom', async () => {
    throw new Error('kaboom');
  });
  if (withLoop)
    await app.register(versionaryLoop, {
      ...booksLoop,
      env: { DATABASE_URL: 'sqlite::memory:', VERSIONARY_ADMIN_KEY: adminKey },
      settings: {
        versions: {
          v1: {
            deprecatedAt: new Date(Date.now() - 30 * day).toISOString(),
            sunsetAt: new Date(Date.now() + 730 * day).toISOString(),
            replacement: 'v2',
          },
          v2: {},
        },
      },
    });
  await app.ready();
  return app;
}

const teamRequests = [
  { method: 'GET', url: '/health' },
  { method: 'HEAD', url: '/health' },
  { method: 'POST', url: '/notes', headers: { 'content-type': 'text/plain' }, payload: 'milk' },
  { method: 'GET', url: '/boom' },
  { method: 'GET', url: '/nope' },
  { method: 'DELETE', url: '/health' },
] as const;

const answer = (r: LightMyRequestResponse) => {
  const { date: _date, ...headers } = r.headers;
  return { status: r.statusCode, headers, body: r.body };
};

describe('versionaryLoop in an app of its own: it stays in its lane', () => {
  let plain: FastifyInstance;
  let looped: FastifyInstance;
  const warnings: string[] = [];
  const onWarning = (warning: Error & { code?: string }) => warnings.push(warning.code ?? warning.message);
  before(async () => {
    process.on('warning', onWarning);
    plain = await teamApp(false);
    looped = await teamApp(true);
  });
  after(async () => {
    process.off('warning', onWarning);
    await plain.close();
    await looped.close();
  });

  it("answers the app's own routes, 404s and errors as they were without it", async () => {
    for (const request of teamRequests) {
      const [without, withLoop] = [await plain.inject(request), await looped.inject(request)];
      assert.deepEqual(answer(withLoop), answer(without), `${request.method} ${request.url}`);
    }
    assert.deepEqual((await looped.inject({ url: '/nope' })).json(), { team: 'not found', url: '/nope' });
    assert.equal((await looped.inject({ url: '/boom' })).headers['x-team'], 'error');
    assert.deepEqual(
      warnings.filter((w) => w.startsWith('FSTWRN')),
      [],
    );
  });

  it('answers under its prefix and on its own routes as before', async () => {
    const v1 = await looped.inject({ url: '/api/v1/books', headers: admin });
    assert.equal(v1.statusCode, 200, v1.body);
    assert.ok(v1.headers.deprecation);
    assert.ok(v1.headers.sunset);
    assert.ok(v1.headers['api-supported-versions']);
    for (const url of ['/api/v9/x', '/api/v1/nope', '/admin/v1/nope']) {
      const missing = await looped.inject({ url, headers: admin });
      assert.equal(missing.statusCode, 404, url);
      assert.match(String(missing.headers['content-type']), /^application\/problem\+json/, url);
      assert.equal(missing.headers['x-content-type-options'], 'nosniff', url);
    }
    assert.equal((await looped.inject({ url: '/api/v9/x', headers: admin })).json().code, 'VERSION_UNKNOWN');
    const docs = await looped.inject({ url: '/docs/v1' });
    assert.equal(docs.statusCode, 200);
    assert.equal(docs.headers['api-supported-versions'], undefined, 'the version list is the API only');
    assert.equal((await looped.inject({ url: '/livez' })).statusCode, 200);
  });
});
