import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LifecycleSource } from '../core/lifecycle/index.ts';
import type { VersionaryError } from '../core/errors/index.ts';
import { createApiScope } from './api-scope.ts';
import { routeUrlOf } from './route-url.ts';

/**
 * The one place that decides how a removed version or endpoint answers: its lifecycle verdict's
 * 410 (or 404) problem, for a version the lifecycle knows, with or without code. The removed gate
 * uses it for routed requests and the not-found handler for paths with no route.
 */
export function removedAnswer(
  lifecycle: LifecycleSource,
  key: { version: string; method: string; path: string },
): { error: VersionaryError; headers: Record<string, string> } | undefined {
  if (lifecycle.versions && !lifecycle.versions().some((v) => v.name === key.version)) return undefined;
  const verdict = lifecycle.verdict(key);
  return verdict.removed ? { error: verdict.removed, headers: verdict.headers } : undefined;
}

/** A removed version's answer on a path with no route (with or without code): the not-found handlers use it. */
export function removedVersionOf(lifecycle: LifecycleSource): (name: string) => VersionaryError | undefined {
  return (name) =>
    lifecycle.versions?.().some((v) => v.name === name)
      ? removedAnswer(lifecycle, { version: name, method: 'GET', path: '/' })?.error
      : undefined;
}

/** Options for {@link installRemovedGate}. */
export interface RemovedGateOptions {
  lifecycle: LifecycleSource;
  /** Where the API lives, for example `/api`. */
  prefix: string;
  /** Told of each refused call, for usage monitoring (no credential has been read yet). */
  onRemovedCall?: (call: { version: string; endpoint: string }, request: FastifyRequest) => void;
}

/**
 * Answer every request to a removed version (or removed endpoint) with its 410/404 problem in
 * `onRequest`, before authentication, rate limiting or any storage work: the version is gone for
 * everyone, with or without credentials. Every route and method under `<prefix>/v<n>` is covered,
 * and every path there with no route; only the version's OpenAPI document stays readable, for
 * migration.
 */
export function installRemovedGate(app: FastifyInstance, options: RemovedGateOptions): void {
  const scope = createApiScope(options.prefix);
  // Parsed once per route pattern by the scope (the patterns are few and fixed), not per request.
  const routeOf = (url: string) => {
    const route = scope.routeOf(url);
    return route && !route.isDocument ? { version: route.version, path: route.template } : null;
  };
  app.addHook('onRequest', async (request, reply) => {
    // The matched route's pattern (Accept-negotiated requests are already rewritten to it); a path
    // with no route under a removed version is gone too, whatever follows the version.
    const url = routeUrlOf(request);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    let route = url === undefined ? null : routeOf(url);
    if (url === undefined) {
      const version = scope.versionOf(request.url);
      route = version ? { version, path: '/' } : null;
    }
    if (!route) return;
    // A path with no route names no endpoint: the version's own verdict answers, and no usage is recorded.
    const removed = removedAnswer(options.lifecycle, {
      version: route.version,
      method: url === undefined ? 'GET' : method,
      path: route.path,
    });
    if (!removed) return;
    if (url !== undefined)
      options.onRemovedCall?.({ version: route.version, endpoint: `${method} ${route.path}` }, request);
    reply.headers(removed.headers);
    throw removed.error;
  });
}
