export { installCaching, etagMatches, contentTag, conditionalHeaderMaxLength } from './caching.ts';
export type { CachingOptions } from './caching.ts';
export { installSecurityHeaders, securityHeaders } from './security-headers.ts';
export { clientErrorResponse, handleClientError } from './client-errors.ts';
export { installJsonBody } from './json-body.ts';
export { createVersionRewriter, isVersionFromAccept, isUnversioned } from './negotiation.ts';
export type { VersionRewriterOptions } from './negotiation.ts';
export { defineHandlers, parseIfMatch, revisionTag } from './operation.ts';
export type { OperationContext, OperationHandler, OperationResult } from './operation-types.ts';
export type {
  ComponentType,
  HandlerContext,
  HandlerMap,
  HandlerResult,
  HandlerSource,
  OperationId,
  TypedHandler,
} from './handler-types.ts';
export { fromFrameworkError } from './fastify-errors.ts';
export { installProblemHandling } from './problem-handling.ts';
export type { ProblemHandlingOptions } from './problem-handling.ts';
export { internalError, problemType, sendProblem, toProblem } from './problem.ts';
export type { ProblemBody } from './problem.ts';
export { statusOf } from './status-table.ts';
export { registerVersionedApi } from './versioned-api.ts';
export type { OperationCallListener, VersionedApiOptions, VersionedRequestHook } from './versioned-api.ts';
export { hiddenInputFields, toRouteSchema } from './route-schemas.ts';
export { integerQuery } from './query-integers.ts';
export { installLingeringClose } from './lingering-close.ts';
export type { LingeringCloseOptions } from './lingering-close.ts';
export { routeUrlOf } from './route-url.ts';
