import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import type { VersionedRequestHook } from '../../http/index.ts';
import type { UsageIdentity } from '../auth/principal.ts';
import type { UsageRecorder } from '../usage/usage-recorder.ts';
import type { LifecycleRuntime } from './runtime.ts';

/**
 * The per-request lifecycle step: deprecation headers, usage recording and the refusal after
 * sunset. Everything it reads is cached in the runtime, so a deprecated call costs a map lookup.
 *
 * @example
 * ```ts
 * registerVersionedApi(app, { ..., onVersionedRequest: [createLifecycleHook({ runtime, recorder, clock, identify: usageIdentityOf })] });
 * ```
 */
export function createLifecycleHook(options: { runtime: LifecycleRuntime; recorder: UsageRecorder; clock: Clock; identify: (request: FastifyRequest) => UsageIdentity }): VersionedRequestHook {
  const { runtime, recorder, clock } = options;
  return ({ request, reply, version, operation }) => {
    const verdict = runtime.verdict({ version: version.name, method: operation.method, path: operation.path });
    if (!verdict.deprecated) return;
    recorder.record({ version: version.name, endpoint: `${operation.method} ${operation.path}`, ...options.identify(request), at: clock.now() });
    reply.headers(verdict.headers);
    if (verdict.removed) throw verdict.removed;
  };
}
