import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineVersions } from '../core/versions/index.ts';
import { defineHandlers } from './operation.ts';
import type { OperationHandler } from './operation-types.ts';

const bundle = defineVersions({
  head: {
    schemas: { Ping: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } },
    operations: [
      {
        id: 'ping',
        method: 'GET',
        path: '/ping',
        summary: 'Ping',
        responses: { 200: { description: 'Pong', schema: 'Ping' } },
      },
    ],
  },
  versions: [{ name: 'v1' }],
});

test('defineHandlers returns the handlers of a complete map, for a bundle or its head', async () => {
  const handlers = defineHandlers(bundle, { ping: async () => ({ status: 200, body: { ok: true } }) });
  assert.deepEqual(await handlers.ping!({} as Parameters<OperationHandler>[0]), { status: 200, body: { ok: true } });
  assert.equal(
    typeof defineHandlers(bundle.head, { ping: async () => ({ status: 200, body: { ok: true } }) }).ping,
    'function',
  );
});

test('from plain JavaScript, an unknown or missing operation id throws where the handlers are defined', () => {
  const untyped = defineHandlers as (api: unknown, handlers: unknown) => unknown;
  assert.throws(
    () => untyped(bundle, { pnig: async () => ({ status: 200 }) }),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, 'INVALID_DEFINITION');
      assert.match(
        error.message,
        /no handler for operation\(s\): ping; handlers for operation\(s\) the head does not declare: pnig/,
      );
      return true;
    },
  );
});
