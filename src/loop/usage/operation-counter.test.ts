import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OperationCount } from '../../kernel/ports/index.ts';
import { createOperationCounter } from './operation-counter.ts';

// A counter unit test: the store is the thing under its control, so a scripted one is right.
function scriptedStore(failures = 0) {
  const writes: OperationCount[][] = [];
  let left = failures;
  return {
    writes,
    store: {
      addOperationCounts: async (counts: OperationCount[]) => {
        if (left-- > 0) throw new Error('database is locked');
        // Copies: the counter must not change a row it has handed over.
        writes.push(counts.map((c) => ({ ...c })));
      },
    },
    /** Every written count summed per key, as the store's upsert would. */
    totals() {
      const out = new Map<string, { calls: number; lastSeen: number }>();
      for (const c of writes.flat()) {
        const key = `${c.hour} ${c.version} ${c.endpoint} ${c.clientId}`;
        const t = out.get(key) ?? { calls: 0, lastSeen: 0 };
        out.set(key, { calls: t.calls + c.calls, lastSeen: Math.max(t.lastSeen, c.lastSeen) });
      }
      return Object.fromEntries(out);
    },
  };
}

const logs: string[] = [];
const log = {
  warn: (_: object, msg: string) => void logs.push(`warn ${msg}`),
  error: (_: object, msg: string) => void logs.push(`error ${msg}`),
};
const h = Date.UTC(2026, 10, 26, 8);
const hour = 3_600_000;

test('counts per hour, version, endpoint and client, and writes one row per key', async () => {
  const s = scriptedStore();
  const counter = createOperationCounter({ store: s.store, log, flushIntervalMs: 60_000 });
  for (let i = 0; i < 5; i++) counter.count({ version: 'v2', endpoint: 'GET /users/{id}', at: h + i * 1000 }, 'cl_a');
  counter.count({ version: 'v2', endpoint: 'GET /users/{id}', at: h + 500 }, 'cl_a'); // out of order: lastSeen stays the latest
  counter.count({ version: 'v1', endpoint: 'GET /users/{id}', at: h + 10 }, 'cl_a');
  counter.count({ version: 'v2', endpoint: 'GET /users/{id}', at: h + 20 }, 'cl_b');
  counter.count({ version: 'v2', endpoint: 'GET /users/{id}', at: h + hour + 1 }, 'cl_a'); // the next hour
  assert.deepEqual(counter.stats(), { keys: 4, shed: 0, failures: 0 });
  await counter.flush();
  assert.equal(s.writes.length, 1);
  assert.deepEqual(s.totals(), {
    [`${h} v2 GET /users/{id} cl_a`]: { calls: 6, lastSeen: h + 4000 },
    [`${h} v1 GET /users/{id} cl_a`]: { calls: 1, lastSeen: h + 10 },
    [`${h} v2 GET /users/{id} cl_b`]: { calls: 1, lastSeen: h + 20 },
    [`${h + hour} v2 GET /users/{id} cl_a`]: { calls: 1, lastSeen: h + hour + 1 },
  });
  await counter.flush();
  assert.equal(s.writes.length, 1, 'nothing counted since: no write');
  counter.count({ version: 'v2', endpoint: 'GET /users/{id}', at: h + 5000 }, 'cl_a');
  await counter.flush();
  assert.deepEqual(s.writes[1], [
    { hour: h, version: 'v2', endpoint: 'GET /users/{id}', clientId: 'cl_a', calls: 1, lastSeen: h + 5000 },
  ]);
  await counter.close();
});

test('a failed write keeps its counts, and the next write adds what came meanwhile', async () => {
  const s = scriptedStore(1);
  const counter = createOperationCounter({ store: s.store, log, flushIntervalMs: 60_000, maxBatch: 2 });
  for (const client of ['a', 'b', 'c']) counter.count({ version: 'v2', endpoint: 'GET /x', at: h }, client);
  await counter.flush();
  assert.equal(s.writes.length, 0);
  assert.deepEqual(counter.stats(), { keys: 3, shed: 0, failures: 1 });
  counter.count({ version: 'v2', endpoint: 'GET /x', at: h + 7 }, 'a');
  await counter.flush();
  assert.deepEqual(s.totals(), {
    [`${h} v2 GET /x a`]: { calls: 2, lastSeen: h + 7 },
    [`${h} v2 GET /x b`]: { calls: 1, lastSeen: h },
    [`${h} v2 GET /x c`]: { calls: 1, lastSeen: h },
  });
  assert.equal(s.writes.length, 2, 'in chunks of maxBatch');
  assert.deepEqual(counter.stats(), { keys: 0, shed: 0, failures: 1 });
  await counter.close();
});

test('while the store fails, memory is bounded: new keys are shed, counted keys keep counting', async () => {
  const s = scriptedStore(2);
  const counter = createOperationCounter({ store: s.store, log, flushIntervalMs: 60_000, maxKeys: 2 });
  counter.count({ version: 'v2', endpoint: 'GET /x', at: h }, 'a');
  counter.count({ version: 'v2', endpoint: 'GET /x', at: h }, 'b');
  await counter.flush();
  counter.count({ version: 'v2', endpoint: 'GET /x', at: h }, 'c'); // a third key: shed
  counter.count({ version: 'v2', endpoint: 'GET /x', at: h + 1 }, 'a');
  await counter.flush();
  assert.deepEqual(counter.stats(), { keys: 2, shed: 1, failures: 2 });
  assert.ok(logs.includes('warn operation counts full: calls of new keys shed'));
  await counter.flush();
  assert.deepEqual(s.totals(), {
    [`${h} v2 GET /x a`]: { calls: 2, lastSeen: h + 1 },
    [`${h} v2 GET /x b`]: { calls: 1, lastSeen: h },
  });
  await counter.close();
});

test('the timer writes on its own, and close retries a failing store before giving up', async () => {
  const s = scriptedStore();
  const counter = createOperationCounter({ store: s.store, log, flushIntervalMs: 10 });
  counter.count({ version: 'v2', endpoint: 'GET /x', at: h }, 'a');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(s.writes.length, 1);
  await counter.close();

  const failing = scriptedStore(2);
  const closing = createOperationCounter({ store: failing.store, log, flushIntervalMs: 60_000, closeTimeoutMs: 2000 });
  closing.count({ version: 'v1', endpoint: 'GET /y', at: h }, 'b');
  await closing.close();
  assert.deepEqual(failing.totals(), { [`${h} v1 GET /y b`]: { calls: 1, lastSeen: h } });

  const down = scriptedStore(1_000);
  const lost = createOperationCounter({ store: down.store, log, flushIntervalMs: 60_000, closeTimeoutMs: 300 });
  lost.count({ version: 'v1', endpoint: 'GET /y', at: h }, 'b');
  await lost.close();
  assert.ok(logs.includes('error operation counts not written before shutdown'));
});
