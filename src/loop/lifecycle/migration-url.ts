import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { migrationUrlProblem, migrationUrlRule } from '../../core/text/index.ts';

/**
 * Refuse a request whose migration URL is not an absolute http(s) URL or a path (400), before
 * anything is stored: the schema's pattern says so first, this holds the rest of the rule (a port
 * past 65535) for a route whose schema is given by an embedding app.
 */
export function assertMigrationUrl(url: string | undefined, pointer: string): void {
  const problem = url === undefined ? undefined : migrationUrlProblem(url, 'migrationUrl');
  if (problem)
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: problem,
      errors: [{ pointer, detail: migrationUrlRule }],
    });
}
