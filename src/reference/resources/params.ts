import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';

/** Read a resource id from a path segment. A malformed id names no resource, so it is 404. */
export function parseId(options: { raw: string | undefined; what: string }): number {
  const { raw, what } = options;
  if (raw === undefined || !/^[1-9][0-9]{0,14}$/.test(raw)) {
    throw new VersionaryError({
      code: ErrorCode.NotFound,
      detail: `No ${what} has the id "${String(raw).slice(0, 40)}": ids are positive integers.`,
    });
  }
  return Number(raw);
}

/** The standard not-found error for a resource. */
export function notFound(what: string, id: number): VersionaryError {
  return new VersionaryError({ code: ErrorCode.NotFound, detail: `No ${what} with id ${id}.` });
}

export { encodeCursor, parsePage } from '../../kernel/app/page.ts';
