import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { defineHandlers } from '../../http/plugin/index.ts';
import type { OperationHandler } from '../../http/index.ts';
import { apiHead } from '../api/index.ts';
import type { LoopHandlersContext } from '../../loop/lifecycle/options.ts';
import { emittedParameterProblems } from './paging.ts';
import { createPostHandlers } from './posts.ts';
import { createUserHandlers } from './users.ts';

/**
 * The reference service's users and posts, each handler typed from its operation in the head.
 * Their tables are the reference service's own app tables, migrated here, when it installs: the
 * loop and the gateway put their own operations in place of this feature, and never create them.
 */
export async function referenceHandlers({ storage, clock, runtime, bundle }: LoopHandlersContext) {
  // Refused before the tables are made: a deprecated parameter the service's own links carry.
  const problems = emittedParameterProblems({ elements: runtime.elements(), bundle });
  if (problems.length > 0)
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: `The lifecycle's parameter deprecations have ${problems.length} error(s):\n- ${problems.join('\n- ')}`,
      errors: problems.map((detail) => ({ pointer: '/parameterDeprecations', detail })),
    });
  const { users, posts } = await storage.resources();
  return defineHandlers(apiHead, {
    ...createUserHandlers({ users, clock }),
    ...createPostHandlers({ users, posts, clock }),
  });
}

/**
 * The reference API's routes without its tables, for an app built only to answer the management
 * API in process (the CLI without `--server`): every users and posts operation is a 404, and the
 * database it opens, which may be a loop's, never gets users and posts.
 */
export const handlersWithoutTables: Record<string, OperationHandler> = Object.fromEntries(
  apiHead.operations.map((op): [string, OperationHandler] => [
    op.id,
    async () => {
      throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'Only the management API is served here.' });
    },
  ]),
);
