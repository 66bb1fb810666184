import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Storage } from '../../src/kernel/ports/index.ts';
import type { UsageLogBatch } from '../../src/kernel/ports/usage-log.ts';

const t0 = Date.UTC(2025, 2, 3, 10);
const path = '/var/log/nginx/versionary-usage.log';
const batch = (over: Partial<UsageLogBatch> & Pick<UsageLogBatch, 'owner'>): UsageLogBatch => ({
  position: { path, device: '2049', inode: '18446744073709551000', offset: 120 },
  calls: [{ version: 'v7', endpoint: 'GET /things/{id}', clientId: 'cl_log', at: t0 }],
  counts: [{ hour: t0, version: 'v7', endpoint: 'GET /things/{id}', clientId: 'cl_log', calls: 1, lastSeen: t0 }],
  keepRaw: true,
  ...over,
});

/** The access-log offsets: one lease per path, and a commit that writes rows and offset together or not at all. */
export function runUsageLogContract(storage: () => Storage): void {
  it('leases a log path to one reader at a time, and commits rows with the offset only under the lease', async () => {
    const s = storage();
    assert.equal(await s.usageLog.position(path), undefined);
    assert.equal(await s.usageLog.lease({ path, owner: 'a', now: t0, until: t0 + 30_000 }), true);
    // Leased but never committed: still no position.
    assert.equal(await s.usageLog.position(path), undefined);
    assert.equal(await s.usageLog.lease({ path, owner: 'b', now: t0 + 1000, until: t0 + 31_000 }), false);
    assert.equal(await s.usageLog.lease({ path, owner: 'a', now: t0 + 2000, until: t0 + 32_000 }), true);
    // The one without the lease writes nothing, neither rows nor offset.
    await assert.rejects(s.usageLog.commit(batch({ owner: 'b' })), /held by another reader/);
    assert.equal((await s.usage.summary('v7')).calls, 0);
    assert.equal(await s.usageLog.position(path), undefined);

    await s.usageLog.commit(batch({ owner: 'a' }));
    assert.deepEqual(await s.usageLog.position(path), {
      path,
      device: '2049',
      inode: '18446744073709551000',
      offset: 120,
    });
    assert.equal((await s.usage.summary('v7')).calls, 1);
    const counts = await s.usage.operationUsage({ since: t0, until: t0 + 3_600_000, version: 'v7' });
    assert.deepEqual(
      counts.map((c) => [c.clientId, c.calls]),
      [['cl_log', 1]],
    );
    // An element call goes to the element rollup, as the recorder's do.
    await s.usageLog.commit(
      batch({
        owner: 'a',
        position: { path, device: '2049', inode: '18446744073709551000', offset: 240 },
        calls: [{ version: 'v7', endpoint: 'GET /things/{id}', clientId: 'cl_log', at: t0, element: 'Thing.old' }],
        counts: [],
      }),
    );
    assert.equal((await s.usage.summary('v7')).calls, 1);
    const elements = await s.usage.elementUsage({ clientId: 'cl_log' });
    assert.deepEqual(
      elements.map((e) => [e.element, e.calls]),
      [['Thing.old', 1]],
    );
    assert.equal((await s.usageLog.position(path))?.offset, 240);

    // An expired lease goes to whoever asks; released, it is free at once.
    assert.equal(await s.usageLog.lease({ path, owner: 'b', now: t0 + 40_000, until: t0 + 70_000 }), true);
    await assert.rejects(s.usageLog.commit(batch({ owner: 'a' })), /held by another reader/);
    await s.usageLog.release({ path, owner: 'a' });
    assert.equal(await s.usageLog.lease({ path, owner: 'a', now: t0 + 41_000, until: t0 + 71_000 }), false);
    await s.usageLog.release({ path, owner: 'b' });
    assert.equal(await s.usageLog.lease({ path, owner: 'a', now: t0 + 42_000, until: t0 + 72_000 }), true);
    assert.equal((await s.usageLog.position(path))?.offset, 240);
  });
}
