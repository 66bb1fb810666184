import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { defineVersionChange, defineVersions, fieldAdded, type OperationSpec } from '../../core/versions/index.ts';
import { defineHandlers, versionary } from './index.ts';

const none = { type: 'object', additionalProperties: false };
const operations: OperationSpec[] = [
  {
    id: 'notes.create',
    method: 'POST',
    path: '/notes',
    summary: 'Create a note',
    query: none,
    body: 'NoteInput',
    responses: { 201: { description: 'Created', schema: 'Note' } },
  },
];
const bundle = defineVersions({
  head: {
    schemas: {
      NoteInput: {
        type: 'object',
        additionalProperties: false,
        required: ['text'],
        properties: { text: { type: 'string' }, colour: { type: 'string' } },
      },
      Note: {
        type: 'object',
        required: ['id', 'text'],
        properties: { id: { type: 'integer' }, text: { type: 'string' }, colour: { type: 'string' } },
      },
    },
    operations,
  },
  versions: [
    { name: 'v1' },
    {
      name: 'v2',
      changes: [
        defineVersionChange({
          description: 'Notes gain a colour.',
          instructions: [fieldAdded('NoteInput', 'colour'), fieldAdded('Note', 'colour')],
        }),
      ],
    },
  ],
});
const created: unknown[] = [];
const handlers = defineHandlers({
  'notes.create': async ({ body }) => {
    created.push(body);
    return { status: 201, body: { id: created.length, ...(body as { text: string }) } };
  },
});

test("beside the app's own 404 and error handler, set before it: the plugin answers its prefix and leaves the rest", async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error & { code?: string }) => warnings.push(warning.code ?? warning.message);
  process.on('warning', onWarning);
  try {
    // Fastify's defaults, as a team's app has them: no server option of Versionary's.
    const app = Fastify();
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ team: 'no such page' }));
    app.setErrorHandler((error, _request, reply) => reply.code(503).send({ team: (error as Error).message }));
    app.get('/boom', async () => {
      throw new Error('the team broke it');
    });
    await app.register(versionary, { bundle, handlers, vendor: 'notes' });
    await app.ready();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, [], 'no Fastify warning (FSTWRN004: an error handler overridden)');
    const nope = await app.inject({ url: '/nope' });
    assert.deepEqual([nope.statusCode, nope.json()], [404, { team: 'no such page' }]);
    const boom = await app.inject({ url: '/boom' });
    assert.deepEqual([boom.statusCode, boom.json()], [503, { team: 'the team broke it' }]);
    for (const [url, code] of [
      ['/api/v9/notes', 'VERSION_UNKNOWN'],
      ['/api/v1/nope', 'NOT_FOUND'],
      ['/api', 'NOT_FOUND'],
    ] as const) {
      const res = await app.inject({ url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', url);
      assert.equal(res.json().code, code, url);
    }
    const bad = await app.inject({ method: 'POST', url: '/api/v2/notes', payload: {} });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.headers['content-type'], 'application/problem+json; charset=utf-8', 'its own routes: problems');
  } finally {
    process.off('warning', onWarning);
  }
});

test("an app's 404 set after the plugin is the root's; the plugin keeps its prefix's", async () => {
  const app = Fastify();
  await app.register(versionary, { bundle, handlers, vendor: 'notes' });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send('mine'));
  await app.ready();
  assert.equal((await app.inject({ url: '/elsewhere' })).body, 'mine');
  assert.equal((await app.inject({ url: '/api/v9/notes' })).json().code, 'VERSION_UNKNOWN');
});

test("a v1 body with a v2-only field is a 400 naming it, whatever the app's ajv options", async () => {
  for (const app of [
    Fastify(),
    Fastify({ ajv: { customOptions: { removeAdditional: 'all', coerceTypes: 'array', useDefaults: true } } }),
  ]) {
    await app.register(versionary, { bundle, handlers, vendor: 'notes' });
    await app.ready();
    created.length = 0;
    const res = await app.inject({ method: 'POST', url: '/api/v1/notes', payload: { text: 'hi', colour: 'red' } });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    const problem = res.json();
    assert.equal(problem.code, 'VALIDATION_FAILED');
    assert.deepEqual(problem.errors, [
      { pointer: '/body/colour', detail: 'unknown field "colour" for this API version' },
    ]);
    assert.deepEqual(created, [], 'nothing was created');
    // Types are not coerced either: the document says a string.
    const typed = await app.inject({ method: 'POST', url: '/api/v1/notes', payload: { text: 5 } });
    assert.equal(typed.statusCode, 400);
    // v2 knows the field.
    const v2 = await app.inject({ method: 'POST', url: '/api/v2/notes', payload: { text: 'hi', colour: 'red' } });
    assert.deepEqual([v2.statusCode, v2.json()], [201, { id: 1, text: 'hi', colour: 'red' }]);
  }
});
