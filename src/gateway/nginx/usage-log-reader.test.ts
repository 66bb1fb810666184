import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, renameSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Storage } from '../../kernel/ports/index.ts';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite-storage.ts';
import { createUsageLogReader, type ReadLines, type UsageLogReader } from './usage-log-reader.ts';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
// Each line is `<client>`; a line `bad` is malformed. Every call is an operation count of the hour 0.
const toUsage = (lines: readonly string[]): ReadLines => {
  const read: ReadLines = { calls: [], counts: [], counted: 0, skipped: 0, malformed: 0 };
  for (const client of lines) {
    if (client === 'bad') {
      read.malformed++;
      continue;
    }
    read.counted++;
    read.counts.push({ hour: 0, version: 'v1', endpoint: 'GET /x', clientId: client, calls: 1, lastSeen: 0 });
  }
  return read;
};

describe('usage log reader', () => {
  let dir: string;
  let storage: Storage;
  let path: string;
  const counted = async () =>
    Object.fromEntries(
      (await storage.usage.operationUsage({ since: 0, until: 3_600_000 })).map((r) => [r.clientId, r.calls]),
    );
  const reader = (options: { chunkBytes?: number } = {}): UsageLogReader =>
    createUsageLogReader({
      path,
      store: storage.usageLog,
      toUsage,
      keepRaw: false,
      log: silent,
      settleMs: 0,
      ...options,
    });
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'usage-log-reader-'));
    storage = await openSqliteStorage({ path: join(dir, 'db.sqlite') });
  });
  after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads complete lines only, resumes at its offset, and follows a rename while stopped', async () => {
    path = join(dir, 'a.log');
    writeFileSync(path, 'a\nb\nb\npart');
    let r = reader({ chunkBytes: 8 });
    await r.step();
    assert.deepEqual(await counted(), { a: 1, b: 2 });
    appendFileSync(path, 'ial\nbad\nwaytoolong');
    await r.step();
    assert.deepEqual(await counted(), { a: 1, b: 2, partial: 1 });
    assert.equal(r.stats().malformed, 1);
    // A line longer than a chunk is skipped whole, once its newline is there.
    appendFileSync(path, 'stillgoing\n');
    await r.step();
    assert.deepEqual(await counted(), { a: 1, b: 2, partial: 1 });
    assert.equal(r.stats().malformed, 2);
    await r.stop();
    // Down: more lines, a rotation by rename, lines in the new file.
    appendFileSync(path, 'c\n');
    renameSync(path, `${path}.1`);
    writeFileSync(path, 'd\nd\n');
    r = reader();
    await r.step();
    assert.deepEqual(await counted(), { a: 1, b: 2, partial: 1, c: 1, d: 2 });
    await r.step();
    assert.deepEqual(await counted(), { a: 1, b: 2, partial: 1, c: 1, d: 2 });
    await r.stop();
  });

  it('waits on the rotated file while nginx still writes it, and reads two rotations in order', async () => {
    path = join(dir, 'b.log');
    writeFileSync(path, 'e\n');
    let r = createUsageLogReader({ path, store: storage.usageLog, toUsage, keepRaw: false, log: silent });
    await r.step();
    renameSync(path, `${path}.1`);
    writeFileSync(path, '');
    // Not reopened yet: nginx appends to the renamed file.
    appendFileSync(`${path}.1`, 'f\n');
    await r.step();
    assert.equal((await counted()).f, 1);
    appendFileSync(`${path}.1`, 'f\n');
    appendFileSync(path, 'g\n');
    await r.step();
    // The renamed file was written just now: it is still the one read.
    assert.equal((await counted()).f, 2);
    assert.equal((await counted()).g, undefined);
    utimesSync(`${path}.1`, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    await r.step();
    assert.equal((await counted()).g, 1);
    await r.stop();
    // Two rotations while stopped: `.2` is the file read last, then `.1`, then the new one.
    appendFileSync(path, 'g\n');
    renameSync(`${path}.1`, `${path}.2`);
    renameSync(path, `${path}.1`);
    writeFileSync(path, 'h\n');
    const old = new Date(Date.now() - 10_000);
    utimesSync(`${path}.1`, old, old);
    r = createUsageLogReader({ path, store: storage.usageLog, toUsage, keepRaw: false, log: silent });
    await r.step();
    assert.deepEqual(
      { e: 1, f: 2, g: 2, h: 1 },
      Object.fromEntries(Object.entries(await counted()).filter(([k]) => 'efgh'.includes(k))),
    );
    await r.stop();
  });

  it('reads a file truncated in place from 0', async () => {
    path = join(dir, 'c.log');
    writeFileSync(path, 'i\ni\n');
    const r = reader();
    await r.step();
    truncateSync(path, 0);
    appendFileSync(path, 'j\n');
    await r.step();
    assert.equal((await counted()).i, 2);
    assert.equal((await counted()).j, 1);
    await r.stop();
  });

  it('lets one reader read a path at a time', async () => {
    path = join(dir, 'd.log');
    writeFileSync(path, 'k\n');
    const first = reader();
    const second = reader();
    await first.step();
    appendFileSync(path, 'k\n');
    await second.step();
    assert.equal((await counted()).k, 1);
    assert.equal(second.stats().leased, false);
    await first.stop();
    await second.step();
    assert.equal((await counted()).k, 2);
    await second.stop();
  });
});
