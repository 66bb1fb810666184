import type { FastifyReply, FastifyRequest } from 'fastify';

type Done = (error?: Error) => void;

/**
 * A Fastify hook that calls `step` and waits only when it returns a promise. An `async` hook
 * costs a promise and a turn of the microtask queue on every request, even when it returns at
 * once, as most do (a brownout guard with no brownout, idempotency without the header).
 */
export function callbackHook(
  step: (request: FastifyRequest, reply: FastifyReply) => void | Promise<unknown>,
): (request: FastifyRequest, reply: FastifyReply, done: Done) => void {
  // Not `runSteps`: a hook in `onResponse` runs after the reply is sent, and must still await its step.
  return (request, reply, done) => {
    let result: void | Promise<unknown>;
    try {
      result = step(request, reply);
    } catch (error) {
      return done(error as Error);
    }
    if (result && typeof result.then === 'function') result.then(() => done(), done);
    else done();
  };
}
