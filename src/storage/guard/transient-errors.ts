import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';

// SQLSTATE classes that describe the database's state, not the query: connection exceptions (08),
// insufficient resources (53), operator intervention (57: admin shutdown, statement timeout,
// cannot connect now), transaction rollback (40: serialization failure, deadlock) and a read-only
// standby after a failover (25006). A missing table or schema (42P01, 3F000) is a deployment in
// progress or a restore, not a bug in a query, so it passes too.
const transientClasses = ['08', '53', '57', '40'];
const transientStates = new Set(['25006', '42P01', '3F000', '55P03']);
/** SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR and SQLITE_FULL, by number. */
const sqlitePrimaryTransient = new Set([5, 6, 10, 13]);
const transientErrnos = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_FULL',
]);
// node-postgres reports lost connections and its own timeouts as plain Errors with these messages.
const transientMessages =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection ended|terminating connection/i;

/** Seconds a client is told to wait after a storage failure that may pass. */
const storageRetryAfterSeconds = 2;

/**
 * Whether a database error may pass by itself (unreachable, overloaded, timed out, failing over),
 * as opposed to a bug in a query, which stays a 500.
 */
export function isTransientStorageError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^[0-9A-Z]{5}$/.test(code) && (transientClasses.includes(code.slice(0, 2)) || transientStates.has(code)))
      return true;
    if (transientErrnos.has(code) || [...transientErrnos].some((c) => code.startsWith(`${c}_`))) return true;
    // node:sqlite names no SQLite code in `code`, only the number in `errcode` (extended codes keep the primary in the low byte).
    const errcode = (error as { errcode?: unknown }).errcode;
    if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && sqlitePrimaryTransient.has(errcode & 0xff))
      return true;
  }
  if (transientMessages.test(error.message)) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isTransientStorageError(cause);
}

/**
 * The error a store raises for a transient failure: `STORAGE_UNAVAILABLE` (503) with `Retry-After`.
 * The original error is kept as `cause` for the log; the client sees no SQL and no host.
 */
function storageUnavailable(error: unknown): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.StorageUnavailable,
    detail: `The database is unavailable for the moment; nothing was changed. Retry in ${storageRetryAfterSeconds} seconds.`,
    headers: { 'retry-after': String(storageRetryAfterSeconds) },
    cause: error,
  });
}

/**
 * Wrap every method of every store so a transient failure surfaces as {@link storageUnavailable}
 * rather than an unexplained 500. Other errors (bugs, constraint violations the stores translate)
 * pass through untouched.
 */
export function guardStores<T extends object>(stores: T): T {
  const guarded = Object.entries(stores).map(([name, store]) => [name, isStore(store) ? guardMethods(store) : store]);
  return Object.fromEntries(guarded) as T;
}

function isStore(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).some((v) => typeof v === 'function') &&
    !('getExecutor' in value)
  );
}

function guardMethods(store: Record<string, unknown>): Record<string, unknown> {
  const guarded = Object.entries(store).map(([name, member]) => [
    name,
    typeof member !== 'function'
      ? member
      : async (...args: unknown[]) => {
          try {
            return await (member as (...a: unknown[]) => Promise<unknown>).apply(store, args);
          } catch (error) {
            throw isTransientStorageError(error) ? storageUnavailable(error) : error;
          }
        },
  ]);
  return Object.fromEntries(guarded) as Record<string, unknown>;
}
