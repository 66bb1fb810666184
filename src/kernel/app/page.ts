import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import type { PageOptions } from '../ports/index.ts';

/** The largest page any list returns, the reference API's and the management API's alike. */
export const maxPageSize = 100;

/** Read `limit` (1–100, default 20) and the opaque `cursor`. */
export function parsePage(query: Record<string, string | number | undefined>): PageOptions {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxPageSize) {
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `limit must be an integer from 1 to ${maxPageSize}.`,
      errors: [{ pointer: '/query/limit', detail: `must be from 1 to ${maxPageSize}` }],
    });
  }
  return { limit, afterId: query.cursor === undefined ? 0 : decodeCursor(String(query.cursor)) };
}

/** Encode the position after which the next page starts. */
export function encodeCursor(afterId: number): string {
  return Buffer.from(`id:${afterId}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^id:([1-9][0-9]{0,14})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: 'cursor is not one this API issued; use meta.nextCursor or the Link rel="next" URL.',
      errors: [{ pointer: '/query/cursor', detail: 'malformed cursor' }],
    });
  }
  return Number(match[1]);
}
