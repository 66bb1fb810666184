import { ErrorCode, isVersionaryError, VersionaryError } from '../../core/errors/index.ts';
import { linkTarget } from '../../core/lifecycle/index.ts';

/**
 * Why a migration URL cannot go into a `Link` header, or `undefined` when it can. Checked when a
 * URL is received (config or management API), so a bad one is refused there and never turns into
 * a failure on every later request.
 */
export function migrationUrlProblem(url: string, field = 'migrationUrl'): string | undefined {
  try {
    linkTarget(url, field);
    return undefined;
  } catch (error) {
    if (isVersionaryError(error)) return error.detail;
    throw error;
  }
}

/** Refuse a request whose migration URL cannot be sent in a `Link` header (400). */
export function assertMigrationUrl(url: string | undefined, pointer: string): void {
  const problem = url === undefined ? undefined : migrationUrlProblem(url);
  if (problem)
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: problem,
      errors: [{ pointer, detail: 'not usable in a Link header' }],
    });
}
