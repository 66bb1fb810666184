import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { OperationCount, OperationUsageRow, Storage } from '../../src/kernel/ports/index.ts';
import { operationPageRows } from '../../src/storage/kysely/usage-operations.ts';

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

  // Whole days come from the daily rows, the hours at the edges from the hourly ones, in pages:
  // every window must still answer what summing its hours answers.
  const d0 = Date.UTC(2026, 11, 1);
  const day = 24 * hour;
  const seeded: OperationCount[] = [];
  const keys = Array.from({ length: 350 }, (_, i) => ({
    endpoint: `GET /p${Math.floor(i / 10)}`,
    clientId: `cl_${i % 10}`,
  }));
  const seedHours = [
    // Six hours before the first midnight: more rows than a page in one slice of hours.
    ...[18, 19, 20, 21, 22, 23].map((h) => d0 + h * hour),
    // One hour of each of eight days: more rows than a page in one slice of days.
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((d) => d0 + d * day + 12 * hour),
    // The ragged end.
    ...[0, 1, 2, 3].map((h) => d0 + 9 * day + h * hour),
  ];
  seedHours.forEach((h, n) =>
    keys.forEach((k, i) =>
      seeded.push(count({ ...k, version: 'vp', hour: h, calls: 1 + ((i + n) % 5), lastSeen: h + ((i * 7919) % hour) })),
    ),
  );
  const summed = (rows: readonly OperationCount[], w: { since: number; until?: number; clientId?: string }) => {
    const sums = new Map<string, OperationUsageRow>();
    for (const c of rows) {
      if (c.hour < Math.floor(w.since / hour) * hour || (w.until !== undefined && c.hour >= w.until)) continue;
      if (w.clientId !== undefined && c.clientId !== w.clientId) continue;
      const key = `${c.endpoint} ${c.clientId}`;
      const sum = sums.get(key);
      if (!sum)
        sums.set(key, {
          version: c.version,
          endpoint: c.endpoint,
          clientId: c.clientId,
          calls: c.calls,
          lastSeen: c.lastSeen,
        });
      else sums.set(key, { ...sum, calls: sum.calls + c.calls, lastSeen: Math.max(sum.lastSeen, c.lastSeen) });
    }
    return [...sums.values()].sort((a, b) =>
      a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : a.clientId < b.clientId ? -1 : 1,
    );
  };
  const windows = [
    { since: d0 },
    { since: d0 + 19 * hour + 59_000, until: d0 + 9 * day + 2 * hour + 1 },
    { since: d0 + day, until: d0 + 9 * day },
    { since: d0 + 3 * day + hour, until: d0 + 5 * day + 13 * hour },
    { since: d0 + 12 * hour, until: d0 + 9 * day + 30 * 60_000, clientId: 'cl_3' },
    { since: d0 + 4 * day + 12 * hour, until: d0 + 4 * day + 12 * hour + 1 },
  ];

  it('reads long windows from the daily and hourly rows, in pages, as the sum of their hours', async () => {
    assert.ok(keys.length * 6 > Math.max(...Object.values(operationPageRows)), 'a slice of hours spans pages');
    const s = storage();
    await s.usage.addOperationCounts(seeded);
    for (const w of windows)
      assert.deepEqual(await s.usage.operationUsage({ ...w, version: 'vp' }), summed(seeded, w), JSON.stringify(w));
  });

  it('keeps the daily rows to the hours that are left when pruning cuts into a day', async () => {
    const s = storage();
    const late = count({
      version: 'vp',
      hour: d0 + 5 * day + 23 * hour,
      calls: 2,
      clientId: 'cl_3',
      endpoint: 'GET /p3',
    });
    // Into the 4th day, keeping its hour: the older rows of the other tests go too.
    assert.equal(
      await s.usage.pruneOperationCounts({ before: d0 + 4 * day + 12 * hour + 30 * 60_000 }),
      seeded.filter((c) => c.hour < d0 + 4 * day).length + 7,
    );
    // Past the 4th day's only hour, then into the 5th past its first hour, before its second.
    assert.equal(await s.usage.pruneOperationCounts({ before: d0 + 4 * day + 13 * hour }), keys.length);
    await s.usage.addOperationCounts([late]);
    assert.equal(await s.usage.pruneOperationCounts({ before: d0 + 5 * day + 13 * hour }), keys.length);
    // A late write into the start of that day: its daily row is read again, and must hold the hours kept.
    const midnight = count({ version: 'vp', hour: d0 + 5 * day, calls: 4, clientId: 'cl_3', endpoint: 'GET /p3' });
    await s.usage.addOperationCounts([midnight]);
    const left = [...seeded.filter((c) => c.hour >= d0 + 5 * day + 13 * hour), late, midnight];
    for (const w of [{ since: 0 }, { since: d0 + 5 * day }, { since: d0 + 4 * day, until: d0 + 7 * day }, ...windows])
      assert.deepEqual(await s.usage.operationUsage({ ...w, version: 'vp' }), summed(left, w), JSON.stringify(w));
  });
}
