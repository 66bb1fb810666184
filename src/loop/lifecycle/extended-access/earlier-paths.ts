import { earlierNames } from '../../../core/earlier-names.ts';
/**
 * The first release's paths of extended access shipped, so they stay as aliases of the new ones
 * (`earlierNames`): the same handler, documented under the first release's operationId so that a
 * client generated from the earlier document keeps working.
 */
export const earlierPath = { grants: earlierNames.grantsPath, requests: earlierNames.requestsPath } as const;

/** A route's schema for its earlier path: the same operation, with the earlier operationId. */
export function earlierPathSchema<S extends { operationId: string; summary: string; description: string }>(
  schema: S,
  operationId: string,
): S {
  return {
    ...schema,
    operationId,
    summary: `${schema.summary} (the earlier path)`,
    description: `The first release's path for \`${schema.operationId}\`, kept for its clients. ${schema.description}`,
  };
}
