import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDriver, type SqliteDriverName } from '../src/storage/sqlite/sqlite-driver.ts';
import { openSqliteStorage } from '../src/storage/sqlite/open-sqlite-storage.ts';
import type { BenchReport } from './types.ts';

const require = createRequire(import.meta.url);
const reads = Number(process.env.SQLITE_READS ?? '30000');
const inserts = Number(process.env.SQLITE_INSERTS ?? '3000');
const rounds = Number(process.env.SQLITE_ROUNDS ?? '3');

/** A driver's own database and statement, for the raw `.get()` reference. */
interface RawDatabase {
  prepare(sql: string): { get(...parameters: unknown[]): unknown };
  close(): void;
}

/** `BENCH_BETTER_SQLITE3=<dir>`: a better-sqlite3 built elsewhere (it is not a dependency). */
const betterSqlite = process.env.BENCH_BETTER_SQLITE3;

/** Which drivers this Node and this install offer. */
function available(): SqliteDriverName[] {
  const drivers: SqliteDriverName[] = ['libsql'];
  try {
    require.resolve(betterSqlite ?? 'better-sqlite3');
    drivers.push('better-sqlite3');
  } catch {
    /* not installed */
  }
  try {
    require('node:sqlite');
    drivers.push('node:sqlite');
  } catch {
    /* Node 20 */
  }
  return drivers;
}

/**
 * Point reads and inserts through the storage port (`users.get`, `users.create`, Kysely and the
 * statement cache included) on each SQLite driver, on a WAL file database, plus a raw prepared
 * `.get()` of the same row for reference. Rounds interleave the drivers; medians are reported.
 *
 * @example
 * ```sh
 * npm run bench -- sqlite
 * ```
 */
export async function benchSqliteDrivers(): Promise<BenchReport> {
  const drivers = available();
  const dir = mkdtempSync(join(tmpdir(), 'versionary-sqlite-'));
  const samples: Record<string, { read: number[]; insert: number[]; rawGet: number[] }> = {};
  try {
    for (let round = 0; round < rounds; round++) {
      for (const driver of drivers) {
        const path = join(dir, `${driver.replace(':', '-')}-${round}.db`);
        const storage = await openSqliteStorage({
          path,
          driver,
          ...(betterSqlite ? { driverModule: betterSqlite } : {}),
        });
        const { users } = await storage.resources();
        const at = new Date().toISOString();
        let t = process.hrtime.bigint();
        for (let n = 0; n < inserts; n++)
          await users.create({
            values: { name: `user ${n}`, email: `user${n}@example.com`, nickname: null, status: 'active' },
            at,
          });
        const insert = Number(process.hrtime.bigint() - t) / 1000 / inserts;
        t = process.hrtime.bigint();
        for (let n = 0; n < reads; n++) await users.get(1 + ((n * 7919) % inserts));
        const read = Number(process.hrtime.bigint() - t) / 1000 / reads;
        await storage.close();
        const raw =
          driver === 'node:sqlite'
            ? new (require('node:sqlite') as { DatabaseSync: new (p: string) => RawDatabase }).DatabaseSync(path)
            : (openSqliteDriver({
                driver,
                path,
                ...(betterSqlite ? { module: betterSqlite } : {}),
              }) as unknown as RawDatabase);
        const statement = raw.prepare('select * from users where id = ?');
        const get = (id: number) => statement.get(id);
        t = process.hrtime.bigint();
        for (let n = 0; n < reads; n++) get(1 + ((n * 7919) % inserts));
        const rawGet = Number(process.hrtime.bigint() - t) / 1000 / reads;
        raw.close();
        const s = (samples[driver] ??= { read: [], insert: [], rawGet: [] });
        s.read.push(read);
        s.insert.push(insert);
        s.rawGet.push(rawGet);
        process.stdout.write(
          `  ${driver} [round ${round + 1}]: read ${read.toFixed(1)} µs, insert ${insert.toFixed(1)} µs, raw get ${rawGet.toFixed(2)} µs\n`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const rows = Object.entries(samples).map(([driver, s]) => ({
    driver,
    'users.get µs': median(s.read).toFixed(1),
    'users.create µs': median(s.insert).toFixed(1),
    'raw prepared get µs': median(s.rawGet).toFixed(2),
  }));
  return {
    title: `sqlite drivers through the storage port: ${reads} point reads, ${inserts} inserts, WAL file, medians of ${rounds} rounds (Node ${process.version})`,
    rows,
    json: {
      node: process.version,
      reads,
      inserts,
      rounds,
      drivers: Object.fromEntries(
        Object.entries(samples).map(([d, s]) => [
          d,
          { readMicros: median(s.read), insertMicros: median(s.insert), rawGetMicros: median(s.rawGet) },
        ]),
      ),
    },
  };
}
