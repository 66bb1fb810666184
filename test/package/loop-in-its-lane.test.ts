import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, freePort } from '../support/service-process.ts';
import {
  installTarballApp,
  spawnInApp,
  sqliteOnlyPeers,
  type AppProcess,
  booksLoopPrelude,
} from '../support/tarball-app.ts';

const adminKey = 'lane-admin-key-0123456789';

// An API team's app, as the team wrote it before it heard of Versionary: its own 404, its own
// error handler, its own text/plain parser and its own routes. `WITH_LOOP=1` adds the loop, as
// docs/loop.md says to: the construction options spread in, then one `register`.
const teamApp = `
${booksLoopPrelude}
const app = Fastify({ ...loopServerOptions({ bundle, vendor: 'books' }) });
app.setNotFoundHandler((request, reply) => reply.code(404).header('x-team', 'not-found').send({ team: 'no such page', url: request.url }));
app.setErrorHandler((error, request, reply) => reply.code(503).type('text/plain').send('team error: ' + error.message));
app.removeContentTypeParser('text/plain');
app.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => done(null, body.toUpperCase()));
app.get('/health', async () => ({ status: 'fine' }));
app.post('/notes', async (request, reply) => reply.code(201).send({ note: request.body }));
app.get('/boom', async () => { throw new Error('the team broke it'); });

if (process.env.WITH_LOOP === '1') {
  const day = 86400000;
  await app.register(versionaryLoop, {
    bundle, vendor: 'books', title: 'Books API', env: process.env,
    handlers: { 'books.list': async () => ({ status: 200, body: [{ id: 1, title: 'Dune', isbn: '9780441013593' }] }) },
    settings: { versions: {
      v1: { deprecatedAt: new Date(Date.now() - 30 * day).toISOString(), sunsetAt: new Date(Date.now() + 730 * day).toISOString(), replacement: 'v2' },
      v2: {},
    } },
  });
}
console.log('listening on ' + await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }));
`;

/** The app's own requests: every one must answer the same with the loop as without it. */
const teamRequests: Array<{ name: string; path: string; init?: RequestInit }> = [
  { name: 'GET /health', path: '/health' },
  { name: 'HEAD /health', path: '/health', init: { method: 'HEAD' } },
  { name: 'GET /health with If-None-Match', path: '/health', init: { headers: { 'if-none-match': '*' } } },
  {
    name: 'POST /notes as text/plain',
    path: '/notes',
    init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'buy milk' },
  },
  { name: 'GET /boom (its error handler)', path: '/boom' },
  { name: 'GET /nope (its 404)', path: '/nope' },
  { name: 'DELETE /health (its 404)', path: '/health', init: { method: 'DELETE' } },
  { name: 'GET /apis (not under /api)', path: '/apis/v1/books' },
];

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function answer(base: string, request: (typeof teamRequests)[number]): Promise<Answer> {
  const res = await fetch(`${base}${request.path}`, request.init);
  // Only the date changes from one answer to the next; every other header must be the app's own.
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
  return { status: res.status, headers, body: await res.text() };
}

// From the packed tarball, as a team installs it: the loop added to an app of its own leaves the
// app's routes, 404s, errors and parsers exactly as they were, and acts under /api and its own paths.
describe('versionaryLoop in an existing app stays in its lane (from the tarball)', { timeout: 600_000 }, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'versionary-lane-'));
  let app: string;
  const started: AppProcess[] = [];

  async function start(withLoop: boolean): Promise<{ base: string; process: AppProcess }> {
    const port = await freePort();
    const child = spawnInApp(process.execPath, ['team-app.js'], {
      cwd: app,
      env: {
        ...process.env,
        PORT: String(port),
        WITH_LOOP: withLoop ? '1' : '0',
        DATABASE_URL: 'sqlite:./lane.db',
        VERSIONARY_ADMIN_KEY: adminKey,
        VERSIONARY_SMTP_URL: 'log:',
      },
    });
    started.push(child);
    await eventually(async () => /listening on/.test(child.output()) || child.child.exitCode !== null, 60_000);
    assert.match(child.output(), /listening on/, `the app starts ${withLoop ? 'with' : 'without'} the loop`);
    return { base: `http://127.0.0.1:${port}`, process: child };
  }

  let without: Map<string, Answer>;
  let withLoop: Map<string, Answer>;
  let loop: { base: string; process: AppProcess };
  before(async () => {
    app = await installTarballApp(tmp, sqliteOnlyPeers);
    writeFileSync(join(app, 'team-app.js'), teamApp);
    const plain = await start(false);
    without = new Map();
    for (const request of teamRequests) without.set(request.name, await answer(plain.base, request));
    await plain.process.stop();
    loop = await start(true);
    withLoop = new Map();
    for (const request of teamRequests) withLoop.set(request.name, await answer(loop.base, request));
  });
  after(async () => {
    for (const child of started) await child.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("answers the app's own routes, 404s and errors byte for byte as without the loop, headers included", () => {
    for (const request of teamRequests)
      assert.deepEqual(withLoop.get(request.name), without.get(request.name), request.name);
    // What the app's own handlers answered, so the comparison is not of two identical failures.
    assert.deepEqual(
      [withLoop.get('GET /health')!.status, JSON.parse(withLoop.get('GET /health')!.body)],
      [200, { status: 'fine' }],
    );
    assert.deepEqual(withLoop.get('POST /notes as text/plain')!.body, JSON.stringify({ note: 'BUY MILK' }));
    const nope = withLoop.get('GET /nope (its 404)')!;
    assert.deepEqual(
      [nope.status, nope.headers['x-team'], JSON.parse(nope.body)],
      [404, 'not-found', { team: 'no such page', url: '/nope' }],
    );
    const boom = withLoop.get('GET /boom (its error handler)')!;
    assert.deepEqual([boom.status, boom.body], [503, 'team error: the team broke it']);
    for (const name of ['api-supported-versions', 'x-content-type-options', 'cache-control', 'etag'])
      assert.equal(withLoop.get('GET /health')!.headers[name], undefined, name);
    assert.doesNotMatch(loop.process.output(), /FSTWRN|already set/);
  });

  it('sends deprecation headers on /api/v1, and its problems for unknown paths under /api', async () => {
    const auth = { authorization: `Bearer ${adminKey}` };
    const v1 = await fetch(`${loop.base}/api/v1/books`, { headers: auth });
    assert.equal(v1.status, 200, loop.process.output());
    assert.deepEqual(await v1.json(), [{ id: 1, title: 'Dune' }]);
    assert.ok(v1.headers.get('deprecation'), 'deprecation');
    assert.ok(v1.headers.get('sunset'), 'sunset');
    assert.equal(v1.headers.get('api-deprecated-versions'), 'v1');
    for (const [path, code] of [
      ['/api/v9/x', 'VERSION_UNKNOWN'],
      ['/api/v1/nope', 'NOT_FOUND'],
      ['/admin/v1/nope', 'NOT_FOUND'],
    ] as const) {
      const res = await fetch(`${loop.base}${path}`, { headers: auth });
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(((await res.json()) as { code: string }).code, code, path);
    }
    // Its own routes answer too: the docs, the probes.
    assert.equal((await fetch(`${loop.base}/docs/v1`)).status, 200);
    assert.equal((await fetch(`${loop.base}/readyz`)).status, 200);
  });
});
