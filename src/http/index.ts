export { conditionalHeaderMaxLength } from './caching.ts';

export { handleClientError } from './client-errors.ts';
export { installJsonBody } from './json-body.ts';
export { createVersionRewriter, reservedSegments } from './negotiation.ts';

export type { OperationContext, OperationHandler } from './operation-types.ts';
export type { ComponentType, HandlerMap } from './handler-types.ts';
export { fromFrameworkError } from './fastify-errors.ts';
export { installProblemHandling } from './problem-handling.ts';

export { sendProblem, toProblem } from './problem.ts';

export { statusOf } from './status-table.ts';

export type { VersionedRequestHook } from './versioned-api.ts';

export { queryIntegerSteps } from './query-integers.ts';
