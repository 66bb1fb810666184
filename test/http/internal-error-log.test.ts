import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { defineVersions } from '../../src/index.ts';
import { versionary } from '../../src/http/plugin/index.ts';

// A 500 problem used to say "It has been logged" even from an app built with Fastify() and no
// logger, where nothing was written. The plugin now logs through the app's own logger and says
// so only when that logger writes errors.
const bundle = defineVersions({
  head: {
    schemas: { Note: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
    operations: [
      {
        id: 'notes.get',
        method: 'GET',
        path: '/notes/{id}',
        summary: 'A note',
        responses: { 200: { description: 'A note', schema: 'Note' } },
      },
      {
        id: 'notes.first',
        method: 'GET',
        path: '/notes/first',
        summary: 'The first note',
        responses: { 200: { description: 'A note', schema: 'Note' } },
      },
    ],
  },
  versions: [{ name: 'v1' }],
});
const handlers = {
  'notes.get': async () => {
    throw new Error('the notes table is gone: SELECT * FROM notes');
  },
  // Breaks its own schema (no `id`), so the plugin refuses to send it.
  'notes.first': async () => ({ status: 200, body: {} }),
};

async function failOnce(options: FastifyServerOptions, url = '/api/v1/notes/1') {
  const app = Fastify(options);
  await app.register(versionary, { bundle, handlers, vendor: 'notes' });
  const res = await app.inject({ url });
  await app.close();
  assert.equal(res.statusCode, 500);
  assert.doesNotMatch(res.body, /notes table|SELECT/, 'no internals reach the client');
  return res.json() as { detail: string; requestId: string };
}

function collector() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe('a 500 problem claims only what is true about logging', () => {
  it('with no logger, it does not say the error was logged', async () => {
    const problem = await failOnce({});
    assert.equal(problem.detail, 'The server failed to answer this request.');
  });

  it("with the app's logger, the error is logged with the problem's requestId, and the detail says so", async () => {
    const { lines, stream } = collector();
    const problem = await failOnce({ logger: { level: 'info', stream } });
    assert.equal(
      problem.detail,
      "The server failed to answer this request. The error has been logged with this problem's requestId.",
    );
    const logged = lines.find((line) => line.level === 50);
    assert.ok(logged, 'an error line was written');
    assert.equal(logged.reqId, problem.requestId);
    assert.match(String((logged.err as { message?: string }).message), /the notes table is gone/);
  });

  it('with the logger silenced, it does not claim a log line either', async () => {
    const { lines, stream } = collector();
    const problem = await failOnce({ logger: { level: 'silent', stream } });
    assert.equal(problem.detail, 'The server failed to answer this request.');
    assert.deepEqual(lines, []);
  });

  it('a response that breaks its schema: logged is claimed only with a logger', async () => {
    const quiet = await failOnce({}, '/api/v1/notes/first');
    assert.doesNotMatch(quiet.detail, /logged/);
    const { lines, stream } = collector();
    const told = await failOnce({ logger: { level: 'info', stream } }, '/api/v1/notes/first');
    assert.match(told.detail, /It has been logged with this problem's requestId\.$/);
    assert.equal(lines.find((line) => line.level === 50)?.reqId, told.requestId);
  });
});
