import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite-storage.ts';
import { createUsageRecorder } from './usage-recorder.ts';

const log = { warn: () => {}, error: () => {} };

// The request path records an element call beside the version's own call: both go through the
// same buffer and batch, and land in different rollups of a real store.
test('element calls flow through the recorder into their own rollup, apart from the version counts', async () => {
  const storage = await openSqliteStorage({ path: ':memory:' });
  const recorder = createUsageRecorder({ store: storage.usage, log, flushIntervalMs: 60_000, maxBatch: 3 });
  const at = Date.UTC(2026, 0, 15);
  const base = { version: 'v2', endpoint: 'POST /users', keyId: 'key_a', at };
  recorder.record({ ...base, clientId: 'acme' });
  recorder.record({ ...base, clientId: 'acme', element: 'UserInput.nickname' });
  recorder.record({ ...base, clientId: 'acme', element: 'UserInput.nickname', at: at + 5 });
  recorder.record({ ...base, clientId: 'beta', endpoint: 'PATCH /users/{id}', element: 'UserInput.nickname' });
  recorder.record({ ...base, clientId: 'beta', endpoint: 'GET /users', element: 'GET /users?order' });
  await recorder.close();
  assert.deepEqual(await storage.usage.summary('v2'), { calls: 1, clients: 1, endpoints: 1 });
  assert.deepEqual(await storage.usage.elementUsage(), [
    { version: 'v2', element: 'GET /users?order', calls: 1, clients: 1, endpoints: 1, lastSeen: at },
    { version: 'v2', element: 'UserInput.nickname', calls: 3, clients: 2, endpoints: 2, lastSeen: at + 5 },
  ]);
  assert.deepEqual(await storage.usage.elementCalls({ clientId: 'acme' }), [
    {
      clientId: 'acme',
      element: 'UserInput.nickname',
      version: 'v2',
      endpoint: 'POST /users',
      calls: 2,
      firstSeen: at,
      lastSeen: at + 5,
    },
  ]);
  await storage.close();
});
