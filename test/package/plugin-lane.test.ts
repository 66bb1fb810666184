import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, freePort } from '../support/service-process.ts';
import { installTarballApp, spawnInApp, sqliteOnlyPeers, type AppProcess } from '../support/tarball-app.ts';

// An orders API, as a team declares it: v2 lets an order carry a note, which v1 does not know.
const ordersPrelude = `import Fastify from 'fastify';
import { defineVersionChange, defineVersions, fieldAdded } from 'versionary';

const schemas = {
  OrderInput: { type: 'object', additionalProperties: false, required: ['item'], properties: { item: { type: 'string' }, note: { type: 'string' } } },
  Order: { type: 'object', required: ['id', 'item'], properties: { id: { type: 'integer' }, item: { type: 'string' }, note: { type: 'string' } } },
};
const operations = [{ id: 'orders.create', method: 'POST', path: '/orders', summary: 'Place an order', body: 'OrderInput',
  query: { type: 'object', additionalProperties: false }, responses: { 201: { description: 'Placed', schema: 'Order' } } }];
const notes = defineVersionChange({ description: 'Orders take a note.', instructions: [fieldAdded('OrderInput', 'note'), fieldAdded('Order', 'note')] });
const bundle = defineVersions({ head: { schemas, operations }, versions: [{ name: 'v1' }, { name: 'v2', changes: [notes] }] });
const orders = [];
const handlers = { 'orders.create': async ({ body }) => { orders.push(body); return { status: 201, body: { id: orders.length, ...body } }; } };
`;

// The plugin in an app with Fastify's defaults and its own 404 and error handler, set first.
const pluginApp = `${ordersPrelude}
import { versionary } from 'versionary/fastify';
const app = Fastify();
app.setNotFoundHandler((request, reply) => reply.code(404).send({ team: 'no such page' }));
app.setErrorHandler((error, request, reply) => reply.code(503).send({ team: error.message }));
app.get('/boom', async () => { throw new Error('the team broke it'); });
app.get('/orders-seen', async () => orders);
await app.register(versionary, { bundle, handlers, vendor: 'shop' });
console.log('listening on ' + await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }));
`;

// The loop for the orders API, with a description and a contact, and no license.
const loopApp = `${ordersPrelude}
import { loopServerOptions, versionaryLoop } from 'versionary/loop';
const options = { bundle, handlers, vendor: 'shop', title: 'Orders API', description: 'Orders and their lines.',
  contact: { email: 'api@shop.example' }, env: process.env };
const app = Fastify({ ...loopServerOptions(options) });
// The team's own route, validated as Fastify validates by default: unknown members are dropped.
app.post('/notes', { schema: { body: { type: 'object', additionalProperties: false, properties: { text: { type: 'string' } } } } },
  async (request) => request.body);
await app.register(versionaryLoop, options);
console.log('listening on ' + await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }));
`;

const auth = { authorization: 'Bearer lane-admin-key-0123456789' };

describe('the plugin and the loop in a team app stay in their lane (from the tarball)', { timeout: 600_000 }, () => {
  const tmp = mkdtempSync(join(tmpdir(), 'versionary-plugin-lane-'));
  const started: AppProcess[] = [];
  let plugin: { base: string; process: AppProcess };
  let loop: { base: string; process: AppProcess };

  async function start(cwd: string, file: string): Promise<{ base: string; process: AppProcess }> {
    const port = await freePort();
    const child = spawnInApp(process.execPath, [file], {
      cwd,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: 'sqlite:./lane.db',
        VERSIONARY_ADMIN_KEY: 'lane-admin-key-0123456789',
      },
    });
    started.push(child);
    await eventually(async () => /listening on/.test(child.output()) || child.child.exitCode !== null, 60_000);
    assert.match(child.output(), /listening on/, `${file} starts`);
    return { base: `http://127.0.0.1:${port}`, process: child };
  }

  before(async () => {
    const app = await installTarballApp(tmp, sqliteOnlyPeers);
    writeFileSync(join(app, 'plugin-app.js'), pluginApp);
    writeFileSync(join(app, 'loop-app.js'), loopApp);
    plugin = await start(app, 'plugin-app.js');
    loop = await start(app, 'loop-app.js');
  });
  after(async () => {
    for (const child of started) await child.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("registers beside the app's own 404 and error handler, answers its prefix, and leaves the rest to the app", async () => {
    assert.doesNotMatch(plugin.process.output(), /FSTWRN|already set/);
    const nope = await fetch(`${plugin.base}/nope`);
    assert.deepEqual([nope.status, await nope.json()], [404, { team: 'no such page' }]);
    const boom = await fetch(`${plugin.base}/boom`);
    assert.deepEqual([boom.status, await boom.json()], [503, { team: 'the team broke it' }]);
    for (const [path, code] of [
      ['/api/v9/orders', 'VERSION_UNKNOWN'],
      ['/api/v1/nope', 'NOT_FOUND'],
    ] as const) {
      const res = await fetch(`${plugin.base}${path}`);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, path);
      assert.equal(((await res.json()) as { code: string }).code, code, path);
    }
  });

  it("answers 400 naming a v2-only field sent to v1, as v1's document says, with the app's default ajv", async () => {
    const document = (await (await fetch(`${plugin.base}/api/v1/openapi.json`)).json()) as {
      components: { schemas: Record<string, { additionalProperties?: boolean }> };
    };
    assert.equal(document.components.schemas.OrderInput!.additionalProperties, false);
    const post = (version: string) =>
      fetch(`${plugin.base}/api/${version}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ item: 'tea', note: 'ring twice' }),
      });
    const v1 = await post('v1');
    assert.equal(v1.status, 400);
    assert.match(v1.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = (await v1.json()) as { errors: Array<{ pointer: string; detail: string }> };
    assert.deepEqual(problem.errors, [{ pointer: '/body/note', detail: 'unknown field "note" for this API version' }]);
    assert.deepEqual(await (await fetch(`${plugin.base}/orders-seen`)).json(), [], 'nothing was stored');
    const v2 = await post('v2');
    assert.deepEqual([v2.status, await v2.json()], [201, { id: 1, item: 'tea', note: 'ring twice' }]);
  });

  it("validates the loop's routes strictly, and the app's own routes as the app's server does", async () => {
    const send = (path: string, body: unknown) =>
      fetch(`${loop.base}${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const order = await send('/api/v1/orders', { item: 'tea', note: 'ring twice' });
    assert.equal(order.status, 400);
    const client = await send('/admin/v1/clients', { name: 'Acme', colour: 'red' });
    assert.equal(client.status, 400, 'the management API refuses an unknown member');
    assert.match(((await client.json()) as { detail: string }).detail, /colour/);
    const note = await send('/notes', { text: 'hi', colour: 'red' });
    assert.deepEqual([note.status, await note.json()], [200, { text: 'hi' }], "Fastify's default, untouched");
  });

  it('serves documents that say what the app gave of its API, and nothing of another', async () => {
    const res = await fetch(`${loop.base}/api/v1/openapi.json`, { headers: auth });
    assert.equal(res.status, 200, loop.process.output());
    const document = (await res.json()) as { info: Record<string, unknown> };
    assert.deepEqual(document.info, {
      title: 'Orders API',
      version: 'v1',
      description: 'Orders and their lines.',
      contact: { email: 'api@shop.example' },
    });
    const page = await (await fetch(`${loop.base}/docs/v1`)).text();
    for (const text of [JSON.stringify(document), page]) {
      assert.doesNotMatch(text, /users-and-posts|users and posts/i);
      assert.doesNotMatch(text, /"MIT"|MIT license/i);
    }
  });
});
