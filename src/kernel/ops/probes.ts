import type { FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { sendProblem } from '../../http/index.ts';
import { withTimeout } from '../rate-limit/fallback-store.ts';

/** One dependency `/readyz` checks; `check` throws when it is not usable. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export interface ProbeOptions {
  checks: ReadinessCheck[];
  /** True from the moment shutdown starts: `/readyz` then fails at once. */
  shuttingDown(): boolean;
  log: { warn(obj: object, msg: string): void };
}

/**
 * `/livez` (the process runs and its event loop turns) and `/readyz` (every dependency answers and
 * the instance is not shutting down). Both are unauthenticated, never rate-limited, cheap, and say
 * nothing about the dependencies: which check failed and why goes to the log only.
 */
export function registerProbes(app: FastifyInstance, options: ProbeOptions): void {
  const readiness = createReadiness(options);
  app.get('/livez', { logLevel: 'warn' }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const failure = await readiness();
    if (failure) return sendProblem(reply, failure);
    return reply.header('cache-control', 'no-store').send({ status: 'ready' });
  });
}

/** A check slower than this counts as failed. */
const timeoutMs = 1000;
/** Results are reused this long, so a probe storm costs one round of checks. */
const cacheMs = 500;

/** The readiness verdict: undefined when ready, else the problem `/readyz` answers with. */
function createReadiness(options: ProbeOptions): () => Promise<VersionaryError | undefined> {
  let last: { at: number; failed: string[] } | undefined;
  let running: Promise<string[]> | undefined;
  const runChecks = async (): Promise<string[]> => {
    const results = await Promise.all(
      options.checks.map(async (c) => {
        try {
          await withTimeout(c.check(), timeoutMs);
          return undefined;
        } catch (error) {
          options.log.warn(
            { check: c.name, err: { message: (error as Error).message, code: (error as { code?: string }).code } },
            'readiness check failed',
          );
          return c.name;
        }
      }),
    );
    return results.filter((name): name is string => name !== undefined);
  };
  return async () => {
    if (options.shuttingDown())
      return new VersionaryError({
        code: ErrorCode.ShuttingDown,
        detail: 'This instance is shutting down.',
        headers: { 'retry-after': '1' },
      });
    if (!last || Date.now() - last.at > cacheMs) {
      running ??= runChecks().finally(() => {
        running = undefined;
      });
      last = { at: Date.now(), failed: await running };
    }
    if (last.failed.length === 0) return undefined;
    return new VersionaryError({
      code: ErrorCode.StorageUnavailable,
      detail: 'A dependency of this instance is unavailable.',
      headers: { 'retry-after': '2' },
    });
  };
}
