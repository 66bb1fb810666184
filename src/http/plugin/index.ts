// The public entry point `versionary/fastify`: the plugin and what its users need beside it.
import type { IncomingMessage } from 'node:http';
import type { VersionBundle } from '../../core/versions/index.ts';
import { createVersionRewriter, reservedSegments } from '../negotiation.ts';

export { versionary } from './versionary-plugin.ts';
export { isLifecycleSource } from './options.ts';
export type {
  CallEvent,
  OpenApiDocumentBuilder,
  OpenApiDocumentInput,
  UsageEvent,
  VersionaryPluginOptions,
} from './options.ts';
export { defineHandlers } from '../operation.ts';
export type { OperationContext, OperationHandler, OperationResult } from '../operation-types.ts';
export type {
  ComponentType,
  HandlerContext,
  HandlerMap,
  HandlerResult,
  HandlerSource,
  OperationId,
  TypedHandler,
} from '../handler-types.ts';
export type { VersionedRequestHook } from '../versioned-api-options.ts';
export type { ForwardOptions } from '../forward-options.ts';
export type { ProblemBody } from '../problem.ts';
export { sendProblem, toProblem } from '../problem.ts';

/**
 * Fastify's `rewriteUrl` for `Accept` negotiation: `/api/books` with
 * `Accept: application/vnd.acme+json; version=2` is served by the v2 routes. Fastify takes it at
 * construction, before any plugin, so it is passed to `Fastify()` rather than to the plugin.
 *
 * @example
 * ```ts
 * const app = Fastify({ rewriteUrl: versionRewriter({ bundle, vendor: 'acme' }) });
 * ```
 */
export function versionRewriter(options: {
  bundle: VersionBundle;
  vendor: string;
  prefix?: string;
  reserved?: string[];
}): (req: IncomingMessage) => string {
  return createVersionRewriter({
    bundle: options.bundle,
    vendor: options.vendor,
    prefix: options.prefix ?? '/api',
    reserved: options.reserved ?? [...reservedSegments],
  });
}
