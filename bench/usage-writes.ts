/**
 * What writing usage costs per deprecated call: the recorder's batches of calls arriving at 1,000 a
 * second (50 clients, one endpoint, raw events kept), inserted into a SQLite file at each flush
 * interval, in CPU microseconds per call. A build's `dist/` (its own `openSqliteStorage`) can be
 * given to compare it with this tree's.
 *
 * @example
 * ```sh
 * npm run build && node --import tsx bench/usage-writes.ts            # this tree's dist/
 * node --import tsx bench/usage-writes.ts /tmp/before                  # another build (a folder with dist/)
 * ```
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { UsageCall, UsageStore } from '../src/kernel/ports/index.ts';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const rate = 1000;
const seconds = Number(process.env.BENCH_SECONDS ?? '30');
const { openSqliteStorage } = (await import(join(root, 'dist/storage/sqlite/open-sqlite-storage.js'))) as {
  openSqliteStorage(o: { path: string }): Promise<{ usage: UsageStore; close(): Promise<void> }>;
};

for (const intervalMs of [200, 1000, 5000]) {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-usage-writes-'));
  const storage = await openSqliteStorage({ path: join(dir, 'usage.db') });
  const perWrite = Math.round((rate * intervalMs) / 1000);
  let at = Date.UTC(2026, 10, 1);
  let calls = 0;
  const batch = (): UsageCall[] =>
    Array.from({ length: perWrite }, () => {
      calls++;
      at += 1000 / rate;
      const client = calls % 50;
      return {
        version: 'v1',
        endpoint: 'GET /users/{id}',
        clientId: `cl_${client}`,
        keyId: `key_${client}`,
        userAgent: 'bench/1.0',
        at: Math.floor(at),
      };
    });
  for (let i = 0; i < 5; i++) await storage.usage.insert(batch(), { keepRaw: true });
  calls = 0;
  const before = process.cpuUsage();
  for (let i = 0; i < (seconds * 1000) / intervalMs; i++) await storage.usage.insert(batch(), { keepRaw: true });
  const cpu = process.cpuUsage(before);
  console.log(
    `${root}: every ${intervalMs} ms (${perWrite} calls a write): ${((cpu.user + cpu.system) / calls).toFixed(2)} µs CPU per call`,
  );
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
}
