import type { FastifyReply } from 'fastify';

/**
 * Run `count` steps in order (`run(i)` runs the i-th), then call `done`: a step that throws or
 * rejects ends the run with its error, a step that sends the reply ends it quietly, and only a
 * step that returns a promise is awaited. The one loop behind the pipeline's hook and a route's
 * version hooks.
 */
export function runSteps(
  steps: { count: number; run: (i: number) => unknown; reply: FastifyReply },
  done: (error?: Error) => void,
): void {
  const { count, run, reply } = steps;
  const next = (from: number): void => {
    for (let i = from; i < count; i++) {
      let result: unknown;
      try {
        result = run(i);
      } catch (error) {
        return done(error as Error);
      }
      if (reply.sent) return done();
      if (isThenable(result)) {
        result.then(
          () => (reply.sent ? done() : next(i + 1)),
          (error: unknown) => done(error as Error),
        );
        return;
      }
    }
    done();
  };
  next(0);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
