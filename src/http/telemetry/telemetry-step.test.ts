import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trace } from '@opentelemetry/api';
import Fastify from 'fastify';
import { defineVersionChange, defineVersions, fieldAdded, type OperationSpec } from '../../core/versions/index.ts';
import { defineHandlers, versionary } from '../plugin/index.ts';
import { createBoundedValues, createCallCounter } from './telemetry-step.ts';

const operations: OperationSpec[] = [
  {
    id: 'notes.get',
    method: 'GET',
    path: '/note',
    summary: 'The note',
    query: { type: 'object', additionalProperties: false },
    responses: { 200: { description: 'The note', schema: 'Note' } },
  },
];
const bundle = defineVersions({
  head: {
    schemas: { Note: { type: 'object', properties: { text: { type: 'string' }, colour: { type: 'string' } } } },
    operations,
  },
  versions: [
    { name: 'v1' },
    {
      name: 'v2',
      changes: [defineVersionChange({ description: 'Colour.', instructions: [fieldAdded('Note', 'colour')] })],
    },
  ],
});

test('with no OpenTelemetry SDK registered, a call is answered as before and nothing records', async () => {
  assert.equal(trace.getActiveSpan(), undefined);
  assert.equal(createCallCounter()(), undefined, 'no counter without a MeterProvider');
  const app = Fastify();
  await app.register(versionary, {
    bundle,
    handlers: defineHandlers({ 'notes.get': async () => ({ status: 200, body: { text: 'hi' } }) }),
    vendor: 'notes',
    clientIdOf: () => 'mobile-app',
  });
  const res = await app.inject({ url: '/api/v2/note' });
  assert.equal(res.statusCode, 200, res.body);
  await app.close();
});

test('the client label keeps its first values and counts every later one as other', () => {
  const bound = createBoundedValues(2);
  assert.deepEqual(['a', 'b', 'c', 'a', 'd', 'b'].map(bound), ['a', 'b', 'other', 'a', 'other', 'b']);
});
