import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UsageCall, UsageStore } from '../../kernel/ports/index.ts';
import { createUsageRecorder } from './usage-recorder.ts';

// A recorder unit test: the store here is the thing under its control, so a scripted one is right.
function scriptedStore(failures: number) {
  const written: UsageCall[] = [];
  let left = failures;
  const store: UsageStore = {
    insert: async (records) => {
      if (left-- > 0) throw new Error('database is locked');
      written.push(...records);
    },
    summary: async () => ({ calls: written.length, clients: 0, endpoints: 0 }),
    list: async () => ({ items: [], nextAfter: null }),
    byClient: async () => [],
    clientTotals: async () => [],
    byDay: async () => [],
    elementUsage: async () => [],
    elementCalls: async () => [],
    pruneRaw: async () => 0,
    addOperationCounts: async () => {},
    operationUsage: async () => [],
    pruneOperationCounts: async () => 0,
    calledBefore: async () => false,
  };
  return { store, written };
}

const logs: string[] = [];
const log = {
  warn: (_: object, msg: string) => void logs.push(`warn ${msg}`),
  error: (_: object, msg: string) => void logs.push(`error ${msg}`),
};
const call = (i: number): UsageCall => ({ version: 'v1', endpoint: 'GET /users', clientId: `c${i}`, at: i });

test('a failed write is retried, not dropped, and order is kept', async () => {
  const { store, written } = scriptedStore(2);
  const recorder = createUsageRecorder({ store, log, flushIntervalMs: 60_000 });
  for (let i = 0; i < 5; i++) recorder.record(call(i));
  await recorder.flush();
  await recorder.flush();
  assert.equal(written.length, 0);
  assert.equal(recorder.stats().failures, 2);
  recorder.record(call(5));
  await recorder.close();
  assert.deepEqual(
    written.map((c) => c.clientId),
    ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'],
  );
});

test('past the buffer limit the oldest records are shed, counted and logged', async () => {
  const { store, written } = scriptedStore(1);
  logs.length = 0;
  const recorder = createUsageRecorder({ store, log, flushIntervalMs: 60_000, maxBuffered: 3 });
  for (let i = 0; i < 5; i++) recorder.record(call(i));
  await recorder.flush();
  assert.equal(recorder.stats().shed, 2);
  assert.ok(logs.some((l) => l.startsWith('warn usage buffer full')));
  await recorder.close();
  assert.deepEqual(
    written.map((c) => c.clientId),
    ['c2', 'c3', 'c4'],
  );
});

test('concurrent flushes write each record once', async () => {
  const { store, written } = scriptedStore(0);
  const recorder = createUsageRecorder({ store, log, flushIntervalMs: 60_000 });
  for (let i = 0; i < 100; i++) recorder.record(call(i));
  await Promise.all([recorder.flush(), recorder.flush(), recorder.flush()]);
  await recorder.close();
  assert.equal(written.length, 100);
  assert.equal(new Set(written.map((c) => c.clientId)).size, 100);
});

test('a store that is slow, not failing, still cannot grow the buffer past its cap', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const written: UsageCall[] = [];
  const store: UsageStore = {
    insert: async (records) => {
      await gate;
      written.push(...records);
    },
    summary: async () => ({ calls: 0, clients: 0, endpoints: 0 }),
    list: async () => ({ items: [], nextAfter: null }),
    byClient: async () => [],
    clientTotals: async () => [],
    byDay: async () => [],
    elementUsage: async () => [],
    elementCalls: async () => [],
    pruneRaw: async () => 0,
    addOperationCounts: async () => {},
    operationUsage: async () => [],
    pruneOperationCounts: async () => 0,
    calledBefore: async () => false,
  };
  const recorder = createUsageRecorder({ store, log, flushIntervalMs: 60_000, maxBuffered: 100 });
  recorder.record(call(-1));
  const pending = recorder.flush();
  for (let i = 0; i < 1000; i++) recorder.record(call(i));
  assert.ok(recorder.stats().buffered <= 100, `buffered ${recorder.stats().buffered}`);
  assert.ok(recorder.stats().shed >= 900);
  release();
  await pending;
  await recorder.close();
  assert.equal(written.at(-1)?.clientId, 'c999', 'the newest records are kept');
});

test('a flush writes in chunks of maxBatch, letting other work run between them, and keeps order when one fails', async () => {
  const sizes: number[] = [];
  const written: UsageCall[] = [];
  let between = 0;
  let calls = 0;
  const { store } = scriptedStore(0);
  store.insert = async (records) => {
    // The third chunk fails once: it and everything after it stay, in order, for the next flush.
    if (++calls === 3) throw new Error('database is locked');
    sizes.push(records.length);
    written.push(...records);
    setImmediate(() => between++);
  };
  const recorder = createUsageRecorder({ store, log, flushIntervalMs: 60_000, maxBatch: 4 });
  for (let i = 0; i < 14; i++) recorder.record(call(i));
  await recorder.flush();
  assert.deepEqual(sizes, [4, 4]);
  assert.equal(recorder.stats().buffered, 6);
  assert.ok(between >= 1, 'a macrotask ran between two chunks');
  await recorder.close();
  assert.deepEqual(sizes, [4, 4, 4, 2]);
  assert.deepEqual(
    written.map((c) => c.clientId),
    Array.from({ length: 14 }, (_, i) => `c${i}`),
  );
});

test('an outage is logged once, however many ticks fail and records are shed, and its end once', async () => {
  const { store, written } = scriptedStore(5);
  logs.length = 0;
  const recorder = createUsageRecorder({ store, log, flushIntervalMs: 60_000, maxBuffered: 4 });
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 3; i++) recorder.record(call(round * 3 + i));
    await recorder.flush();
  }
  assert.equal(recorder.stats().failures, 5);
  assert.equal(logs.filter((l) => l.startsWith('error usage write failed')).length, 1);
  assert.equal(logs.filter((l) => l.startsWith('warn usage buffer full')).length, 1);
  await recorder.flush();
  assert.deepEqual(
    written.map((c) => c.clientId),
    ['c12', 'c13', 'c14'],
    'the newest records within the bound (shed down to 90% of it when recording) are written',
  );
  assert.deepEqual(
    logs.filter((l) => l.includes('resumed')),
    ['warn usage writes resumed'],
  );
  await recorder.close();
  assert.ok(
    logs.at(-1)!.startsWith('error usage records not written before shutdown'),
    'the shed are reported at close',
  );
});

test('records wait for the timer: nothing is written before the interval unless flushed', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { store, written } = scriptedStore(0);
  const recorder = createUsageRecorder({ store, log });
  recorder.record(call(1));
  t.mock.timers.tick(999);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(written.length, 0);
  t.mock.timers.tick(1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(written.length, 1, 'written at the default interval, one second');
  await recorder.close();
});
