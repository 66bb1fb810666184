import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiVersion, OperationSpec } from '../core/versions/index.ts';
import { runSteps } from './pipeline/run-steps.ts';

/** Runs once the version of a request is known: the lifecycle plugs in here (410, headers, usage). */
export type VersionedRequestHook = (options: {
  request: FastifyRequest;
  reply: FastifyReply;
  version: ApiVersion;
  operation: OperationSpec;
}) => void | Promise<void>;

/**
 * Run a version's hooks (the lifecycle, usage) for one request in order, awaiting only those that
 * return a promise, then call `done`: a route's compiled `onRequest`, for handlers and forwarding alike.
 */
export function runHooks(
  hooks: readonly VersionedRequestHook[],
  event: Parameters<VersionedRequestHook>[0],
  done: (error?: Error) => void,
): void {
  runSteps({ count: hooks.length, run: (i) => hooks[i]!(event), reply: event.reply }, done);
}
