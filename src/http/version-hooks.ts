import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiVersion, OperationSpec } from '../core/versions/index.ts';

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
  const next = (from: number): void => {
    if (from > 0 && event.reply.sent) return done();
    for (let i = from; i < hooks.length; i++) {
      let result: void | Promise<void>;
      try {
        result = hooks[i]!(event);
      } catch (error) {
        return done(error as Error);
      }
      if (event.reply.sent) return done();
      if (result && typeof result.then === 'function') {
        result.then(
          () => next(i + 1),
          (error: unknown) => done(error as Error),
        );
        return;
      }
    }
    done();
  };
  next(0);
}
