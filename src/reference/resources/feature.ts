import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { defineHandlers } from '../../http/plugin/index.ts';
import type { OperationHandler } from '../../http/index.ts';
import { apiHead } from '../api/index.ts';
import type { LoopHandlersContext } from '../../loop/lifecycle/options.ts';
import { emittedParameterProblems } from './paging.ts';
import { createPostHandlers } from './posts.ts';
import { createUserHandlers } from './users.ts';

/** The reference service's users and posts; their tables are made here, never by the loop or the gateway. */
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

/** The reference API without tables, for the CLI's in-process management API: every operation a 404. */
export const handlersWithoutTables: Record<string, OperationHandler> = Object.fromEntries(
  apiHead.operations.map((op): [string, OperationHandler] => [
    op.id,
    async () => {
      throw new VersionaryError({ code: ErrorCode.NotFound, detail: 'Only the management API is served here.' });
    },
  ]),
);
