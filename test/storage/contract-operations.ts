import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { OperationCount, Storage } from '../../src/service/ports/index.ts';

const hour = 3_600_000;
const h0 = Date.UTC(2026, 10, 26, 8);
const count = (c: Partial<OperationCount> & Pick<OperationCount, 'hour' | 'calls'>): OperationCount => ({
  version: 'v2',
  endpoint: 'GET /users/{id}',
  clientId: 'cl_a',
  lastSeen: c.hour + 1000,
  ...c,
});

/** The hourly per-operation counts of every version: upserts that add up, windows by hour, pruning by hour. */
export function runOperationCountsContract(storage: () => Storage): void {
  it('adds hourly operation counts across batches and duplicates, keeping the latest lastSeen', async () => {
    const s = storage();
    await s.usage.addOperationCounts([]);
    await s.usage.addOperationCounts([
      count({ hour: h0, calls: 3, lastSeen: h0 + 5000 }),
      // The same key twice in one batch: one upsert statement could not take it on PostgreSQL.
      count({ hour: h0, calls: 2, lastSeen: h0 + 100 }),
      count({ hour: h0 + hour, calls: 1 }),
      count({ hour: h0, calls: 4, version: 'v1' }),
      count({ hour: h0, calls: 7, clientId: 'cl_b', endpoint: 'POST /users' }),
    ]);
    // A later batch with an older lastSeen keeps the newer one, and an hour given mid-hour is its hour.
    await s.usage.addOperationCounts([count({ hour: h0 + 60_000, calls: 10, lastSeen: h0 + 10 })]);
    assert.deepEqual(await s.usage.operationUsage({ since: h0 }), [
      { version: 'v1', endpoint: 'GET /users/{id}', clientId: 'cl_a', calls: 4, lastSeen: h0 + 1000 },
      { version: 'v2', endpoint: 'GET /users/{id}', clientId: 'cl_a', calls: 16, lastSeen: h0 + hour + 1000 },
      { version: 'v2', endpoint: 'POST /users', clientId: 'cl_b', calls: 7, lastSeen: h0 + 1000 },
    ]);
  });

  it('reads the hours of a window, by version and by client', async () => {
    const s = storage();
    // since mid-hour still reads its hour; until excludes the hours that start at or after it.
    assert.deepEqual(
      (await s.usage.operationUsage({ since: h0 + 30 * 60_000, until: h0 + hour })).map((r) => [r.version, r.calls]),
      [
        ['v1', 4],
        ['v2', 15],
        ['v2', 7],
      ],
    );
    assert.deepEqual(
      (await s.usage.operationUsage({ since: h0 + hour, until: h0 + 2 * hour })).map((r) => r.calls),
      [1],
    );
    assert.deepEqual(await s.usage.operationUsage({ since: h0 + 2 * hour }), []);
    assert.deepEqual(await s.usage.operationUsage({ since: h0 - 5 * hour, until: h0 }), []);
    assert.deepEqual(
      (await s.usage.operationUsage({ since: h0, version: 'v2' })).map((r) => r.clientId),
      ['cl_a', 'cl_b'],
    );
    assert.deepEqual(
      (await s.usage.operationUsage({ since: h0, clientId: 'cl_b' })).map((r) => [r.endpoint, r.calls]),
      [['POST /users', 7]],
    );
    assert.deepEqual(await s.usage.operationUsage({ since: h0, version: 'v1', clientId: 'cl_b' }), []);
  });

  it('adds up concurrent writers of the same hours', async () => {
    const s = storage();
    const at = h0 + 24 * hour;
    const batch = (n: number) =>
      ['GET /a', 'GET /b', 'POST /c'].flatMap((endpoint) =>
        ['cl_x', 'cl_y'].map((clientId) => count({ hour: at, calls: n, endpoint, clientId, version: 'vc' })),
      );
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => s.usage.addOperationCounts(n % 2 ? batch(n) : batch(n).reverse())));
    const rows = await s.usage.operationUsage({ since: at, version: 'vc' });
    assert.equal(rows.length, 6);
    for (const r of rows) assert.equal(r.calls, 21, `${r.endpoint} ${r.clientId}`);
  });

  it('prunes the hours that ended before a point in time, and nothing later', async () => {
    const s = storage();
    // Before h0 + 1 h + 30 min: the hour of h0 ended, the hour after has not.
    assert.equal(await s.usage.pruneOperationCounts({ before: h0 + hour + 30 * 60_000 }), 3);
    assert.deepEqual(
      (await s.usage.operationUsage({ since: 0 })).map((r) => [r.version, r.endpoint, r.calls]),
      [
        ['v2', 'GET /users/{id}', 1],
        ['vc', 'GET /a', 21],
        ['vc', 'GET /a', 21],
        ['vc', 'GET /b', 21],
        ['vc', 'GET /b', 21],
        ['vc', 'POST /c', 21],
        ['vc', 'POST /c', 21],
      ],
    );
    assert.equal(await s.usage.pruneOperationCounts({ before: h0 + hour + 30 * 60_000 }), 0);
  });
}
