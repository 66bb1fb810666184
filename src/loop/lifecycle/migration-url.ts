import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { migrationUrlProblem, migrationUrlRule } from '../../core/text/index.ts';

/** Refuse a migration URL the rule forbids (400) before anything is stored, for a route whose schema an app gave. */
export function assertMigrationUrl(url: string | undefined, pointer: string): void {
  const problem = url === undefined ? undefined : migrationUrlProblem(url, 'migrationUrl');
  if (problem)
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: problem,
      errors: [{ pointer, detail: migrationUrlRule }],
    });
}
