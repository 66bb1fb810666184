import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { formatIsoInstant } from '../../core/lifecycle/index.ts';
import type { UsageRecorder } from '../usage/usage-recorder.ts';
import type { LifecycleRuntime } from './runtime.ts';
import { routeUrlOf } from '../../http/route-url.ts';

/** Options for {@link installRemovedVersionGate}. */
export interface RemovedVersionGateOptions {
  runtime: LifecycleRuntime;
  recorder: UsageRecorder;
  clock: Clock;
  /** Where the API lives, for example `/api`. */
  prefix: string;
  clientIdOf: (request: FastifyRequest) => string;
}

/**
 * Answer every request to a removed version (or removed endpoint) with its 410/404 problem before
 * authentication, rate limiting or any storage work: the version is gone for everyone, with or
 * without credentials. Every route and method under `/api/v<n>` is covered (the not-found handler
 * covers paths with no route); only the version's OpenAPI document stays readable, for migration.
 * The call is still recorded for usage monitoring, by client address since no credential has
 * been read yet.
 *
 * @example
 * ```ts
 * installRemovedVersionGate(app, { runtime, recorder, clock, prefix: '/api', clientIdOf });
 * ```
 */
export function installRemovedVersionGate(app: FastifyInstance, options: RemovedVersionGateOptions): void {
  const { runtime, recorder, clock } = options;
  const versioned = new RegExp(`^${options.prefix}/(v[0-9]+)(/.*)?$`);
  // Parsed once per route pattern (the patterns are few and fixed), not per request.
  const routes = new Map<string, { version: string; path: string } | null>();
  const routeOf = (url: string) => {
    let known = routes.get(url);
    if (known === undefined) {
      const match = versioned.exec(url);
      known = match && match[2] !== '/openapi.json' ? { version: match[1]!, path: (match[2] ?? '/').replace(/:([^/]+)/g, '{$1}') } : null;
      routes.set(url, known);
    }
    return known;
  };
  app.addHook('onRequest', async (request, reply) => {
    // The matched route's pattern (Accept-negotiated requests are already rewritten to it).
    const url = routeUrlOf(request);
    const route = url === undefined ? null : routeOf(url);
    if (!route) return;
    const { version, path } = route;
    if (!runtime.versions().some((v) => v.name === version)) return;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const verdict = runtime.verdict({ version, method, path });
    if (!verdict.removed) return;
    recorder.record({ version, endpoint: `${method} ${path}`, clientId: options.clientIdOf(request), at: clock.now() });
    reply.headers(verdict.headers);
    throw verdict.removed;
  });
}

/**
 * `info` members that mark a removed version's document: it stays readable for migration, but
 * says plainly that the version answers 410 (or 404) everywhere.
 *
 * @example
 * ```ts
 * toOpenApiDocument({ ..., info: removedDocumentInfo({ runtime, name: 'v1', status: 410 }) });
 * ```
 */
export function removedDocumentInfo(options: { runtime: LifecycleRuntime; name: string; status: number }): Record<string, unknown> {
  const { runtime, name } = options;
  const removed = runtime.verdict({ version: name, method: 'GET', path: '/' });
  if (!removed.removed) return {};
  const sunset = formatIsoInstant(removed.sunsetAt!);
  const replacement = removed.removed.extensions.replacement;
  return {
    'x-removed': true,
    'x-sunset': sunset,
    description: `REMOVED: ${name} was removed at its sunset date, ${sunset}. Every request to it answers ${options.status} with a problem body${replacement ? `; use ${String(replacement)} instead` : ''}. This document is kept for migration only.`,
  };
}
