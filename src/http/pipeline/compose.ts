import type { FastifyReply, FastifyRequest } from 'fastify';

/** A step bound to its route: what a composed stage calls. */
export type BoundStep = (request: FastifyRequest, reply: FastifyReply) => unknown;
/** A payload step bound to its route: returns a payload to send instead, or `undefined`. */
export type BoundPayloadStep = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => unknown;

type Done = (error?: Error) => void;
type PayloadDone = (error: Error | null, payload?: unknown) => void;

/**
 * One function for a stage's steps, in order: each is called directly, and only a step that
 * returns a promise is awaited (Hono's `compose`, Elysia's `composeHandler`). A step that throws
 * or rejects ends the stage with its error; with `untilSent`, a step that sent the reply ends it
 * quietly. No steps, no function: the stage's hook returns at once.
 */
export function composeSteps(steps: readonly BoundStep[], untilSent: boolean) {
  if (steps.length === 0) return undefined;
  if (steps.length === 1) {
    // Not composed when there is one step (Hono: "Do not `compose` if it has only one handler").
    const [only] = steps as [BoundStep];
    return (request: FastifyRequest, reply: FastifyReply, done: Done): void => {
      let result: unknown;
      try {
        result = only(request, reply);
      } catch (error) {
        return done(error as Error);
      }
      if (isThenable(result)) result.then(() => done(), done);
      else done();
    };
  }
  return (request: FastifyRequest, reply: FastifyReply, done: Done): void => {
    const next = (from: number): void => {
      for (let i = from; i < steps.length; i++) {
        let result: unknown;
        try {
          result = steps[i]!(request, reply);
        } catch (error) {
          return done(error as Error);
        }
        if (untilSent && reply.sent) return done();
        if (isThenable(result)) {
          result.then(
            () => (untilSent && reply.sent ? done() : next(i + 1)),
            (error: unknown) => done(error as Error),
          );
          return;
        }
      }
      done();
    };
    next(0);
  };
}

/** One function for a payload stage's steps: each may replace the payload, the next sees it. */
export function composePayloadSteps(steps: readonly BoundPayloadStep[]) {
  if (steps.length === 0) return undefined;
  // eslint-disable-next-line max-params -- Fastify's callback payload hooks take four
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: PayloadDone): void => {
    const next = (from: number, current: unknown): void => {
      for (let i = from; i < steps.length; i++) {
        let result: unknown;
        try {
          result = steps[i]!(request, reply, current);
        } catch (error) {
          return done(error as Error);
        }
        if (isThenable(result)) {
          result.then(
            (value: unknown) => next(i + 1, value === undefined ? current : value),
            (error: unknown) => done(error as Error),
          );
          return;
        }
        if (result !== undefined) current = result;
      }
      done(null, current);
    };
    next(0, payload);
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
