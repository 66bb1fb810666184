import { randomUUID } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import type { OperationCount, UsageCall, UsageLogPosition, UsageLogStore } from '../../kernel/ports/index.ts';
import { atLineStart, fileState, readLines, type FileState } from './usage-log-file.ts';

/** How long changes to the log are gathered before a pass reads them. */
const gatherMs = 200;

/** Rotated files looked at for the one read last: `<path>.1` to `<path>.5` (compressed ones cannot be read). */
const maxRotated = 5;

const sameFile = (a: { device: string; inode: string }, b: { device: string; inode: string } | undefined) =>
  b !== undefined && a.device === b.device && a.inode === b.inode;

/** What the reader makes of the lines it read: usage to write, and how many lines were each outcome. */
export interface ReadLines {
  calls: UsageCall[];
  counts: OperationCount[];
  counted: number;
  skipped: number;
  malformed: number;
}

/** Options of {@link createUsageLogReader}. */
export interface UsageLogReaderOptions {
  /** The log nginx writes; rotated, it is `<path>.1`. */
  path: string;
  /**
   * What the offset and lease are kept under: this host's name and the path by default, so that the
   * control planes of several nginx hosts, each reading its own host's log at the same path, share a
   * database without sharing an offset.
   */
  key?: string;
  store: UsageLogStore;
  /** Turn complete lines into usage (malformed ones logged there, never thrown). */
  toUsage(lines: readonly string[]): ReadLines;
  keepRaw: boolean;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  /** How often the file is looked at when no change was seen; 1000 ms by default. */
  pollMs?: number;
  /** How long a rotated file must have been still before the reader leaves it for the new one; 2000 ms by default. */
  settleMs?: number;
  /** How long a lease lasts unrenewed; 30 000 ms by default. */
  leaseMs?: number;
  /** Bytes read and committed at a time; 1 MiB by default. */
  chunkBytes?: number;
  now?: () => number;
}

/** The reader of one log path. */
export interface UsageLogReader {
  /** One pass: finish a rotated file, then read the current one to its last complete line. */
  step(): Promise<void>;
  /** Read as the file changes (watching its directory, and polling), until {@link stop}. */
  start(): void;
  /** Stop following, finish the pass under way, and let the lease go. */
  stop(): Promise<void>;
  stats(): { counted: number; skipped: number; malformed: number; lagBytes: number; leased: boolean };
}

/**
 * Follow nginx's usage log and write its calls' usage, each line exactly once: the rows of a
 * chunk of lines and the offset past them commit in one transaction (with the file's device and
 * inode), so a reader that stops anywhere resumes where its last commit ended. A file rotated by
 * rename (`usage.log` → `usage.log.1`, then `nginx -s reopen`) is finished from the stored offset
 * before the new one is read from 0, even when the rotation happened while the reader was down;
 * a file truncated in place (copytruncate) is read again from 0. One reader per path holds a lease
 * in the database; another waits until it lapses.
 */
export function createUsageLogReader(options: UsageLogReaderOptions): UsageLogReader {
  const { path, store, log } = options;
  const key = options.key ?? `${hostname()}:${path}`;
  const owner = `${process.pid}-${randomUUID()}`;
  const pollMs = options.pollMs ?? 1000;
  const settleMs = options.settleMs ?? 2000;
  const leaseMs = options.leaseMs ?? 30_000;
  const chunkBytes = options.chunkBytes ?? 1024 * 1024;
  const now = options.now ?? Date.now;
  const totals = { counted: 0, skipped: 0, malformed: 0, lagBytes: 0 };
  let leasedUntil = 0;
  let waitingLogged = false;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let gathering: NodeJS.Timeout | undefined;

  const holdLease = async (): Promise<boolean> => {
    const at = now();
    // Renewed once half of it has gone, so a slow pass never outlives it.
    if (leasedUntil - at > leaseMs / 2) return true;
    const held = await store.lease({ path: key, owner, now: at, until: at + leaseMs });
    leasedUntil = held ? at + leaseMs : 0;
    if (!held && !waitingLogged)
      log.warn({ path }, 'another control plane reads this usage log; waiting for its lease');
    waitingLogged = !held;
    return held;
  };

  // Read `file` (at `readPath`) from `from` to its last complete line, committing each chunk with its offset.
  const readFile = async (readPath: string, file: FileState, from: number): Promise<number> => {
    let offset = from;
    // The lease is renewed between chunks: a long backlog outlives one lease.
    while (offset < file.size && !stopped && (await holdLease())) {
      const chunk = await readLines(readPath, offset, chunkBytes);
      if (chunk.end === offset) break;
      if (chunk.overlong) log.warn({ path: readPath, offset }, 'usage log line longer than a chunk skipped');
      const usage = options.toUsage(chunk.lines);
      const position: UsageLogPosition = { path: key, device: file.device, inode: file.inode, offset: chunk.end };
      await store.commit({ position, calls: usage.calls, counts: usage.counts, keepRaw: options.keepRaw, owner });
      totals.counted += usage.counted;
      totals.skipped += usage.skipped;
      totals.malformed += usage.malformed + (chunk.overlong ? 1 : 0);
      offset = chunk.end;
    }
    return offset;
  };

  const moveTo = (file: FileState) =>
    store.commit({
      position: { path: key, device: file.device, inode: file.inode, offset: 0 },
      calls: [],
      counts: [],
      keepRaw: options.keepRaw,
      owner,
    });

  const pass = async (): Promise<void> => {
    if (!(await holdLease())) return;
    const current = await fileState(path);
    const stored = await store.position(key);
    if (stored && !sameFile(stored, current)) {
      await finishRotated(stored, current);
      return;
    }
    let from = 0;
    if (stored && current) {
      // Shrunk below the offset, or the offset no longer ends a line: truncated in place (copytruncate).
      if (current.size < stored.offset || !(await atLineStart(path, stored.offset))) {
        log.warn(
          { path, offset: stored.offset, size: current.size },
          'usage log truncated in place: reading it from 0',
        );
        await moveTo(current);
      } else from = stored.offset;
    }
    if (!current) return;
    const end = await readFile(path, current, from);
    totals.lagBytes = Math.max(0, current.size - end);
  };

  // The stored file is no longer at `path`: rotated. Find it among `<path>.1` … `.5` by inode, read
  // its rest, and move to the file after it (`.1` after `.2`, `path` after `.1`), so rotations
  // while the reader was down are read in order; the pass then runs again on the next file.
  const finishRotated = async (stored: UsageLogPosition, current: FileState | undefined): Promise<void> => {
    for (let n = 1; n <= maxRotated; n++) {
      const rotatedPath = `${path}.${n}`;
      const rotated = await fileState(rotatedPath);
      if (!rotated || !sameFile(stored, rotated)) continue;
      const end = await readFile(rotatedPath, rotated, stored.offset);
      // Stopped, or the lease lost, before its end: the rest is read by the next pass, or the next reader.
      if (stopped || leasedUntil === 0) return;
      const next = n === 1 ? current : await fileState(`${path}.${n - 1}`);
      // nginx writes to the rotated file until it reopens its log: the next file is taken only once
      // it holds a line and the rotated one has been still for a while.
      if (!next || (n === 1 && (next.size === 0 || now() - rotated.mtimeMs < settleMs))) return;
      if (rotated.size > end)
        log.warn({ path: rotatedPath }, 'rotated usage log ends without a newline: its last line is dropped');
      await moveTo(next);
      again = true;
      return;
    }
    log.error(
      { path, inode: stored.inode, offset: stored.offset },
      'usage log rotated, and the file read last is not at <path>.1 to .5: the lines after the stored offset cannot be read',
    );
    if (current) {
      await moveTo(current);
      again = true;
    }
  };

  const step = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pass();
        } catch (error) {
          // A database or file error: nothing past the last commit is lost; the next pass tries again.
          log.error({ err: error, path }, 'reading the usage log failed; will retry');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    step,
    start() {
      const tick = () => {
        if (stopped) return;
        void step().finally(() => {
          if (!stopped) timer = setTimeout(tick, pollMs).unref();
        });
      };
      tick();
      try {
        // The directory, not the file: a watch on the file would follow it to `<path>.1` on rotation.
        // nginx writes a line per call: a pass per write would be a transaction per call. Changes
        // are gathered for a moment, so a busy log costs a few passes a second.
        watcher = watch(dirname(path), (_event, name) => {
          if (gathering || stopped || (name !== null && !name.startsWith(basename(path)))) return;
          gathering = setTimeout(() => {
            gathering = undefined;
            void step();
          }, gatherMs);
          gathering.unref();
        });
        watcher.on('error', () => watcher?.close());
        watcher.unref();
      } catch {
        // No watch (an unsupported file system): polling alone.
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (gathering) clearTimeout(gathering);
      watcher?.close();
      await running;
      if (leasedUntil > 0) await store.release({ path: key, owner }).catch(() => {});
      leasedUntil = 0;
    },
    stats: () => ({ ...totals, leased: leasedUntil > now() }),
  };
}
