import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createApiScope } from '../../http/api-scope.ts';
import { maxClientLabels, type ServiceMetrics } from './metrics.ts';
import { routeUrlOf } from '../../http/route-url.ts';
import { stateOf } from '../../http/pipeline/request-state.ts';
import { provideSteps } from '../../http/pipeline/listed-steps.ts';
import { defineStep, stepKey } from '../../http/pipeline/step-definition.ts';

export interface InstallMetricsOptions {
  metrics: ServiceMetrics;
  /** Version names that may appear as a label; anything else is `none`, so a scanner cannot grow the label set. */
  versions: () => string[];
  /** The API's path prefix (default `/api`): the version label is the segment after it. */
  prefix?: string;
  /** The client a call counts for (its client id, else its credential's), from the parts that authenticate it. */
  clientOf: (request: FastifyRequest) => string | undefined;
}

const maxSeries = 4096;

/**
 * Count every response: by method, route template (never the raw URL, whose ids would make one
 * series per resource), API version and status; time it; count deprecated calls (the lifecycle
 * steps said a `Deprecation` header went out), calls refused after their sunset and rate-limit
 * refusals (by the policy the limit step named), from the request state.
 */
export function installMetrics(app: FastifyInstance, options: InstallMetricsOptions): void {
  provideSteps({ app, prefix: options.prefix }, [[metricsKey, options]]);
  const { metrics } = options;
  // It needs an admin key: the caller's authorization says so.
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}

const metricsKey = stepKey<InstallMetricsOptions>('metrics');

export const metricsStep = defineStep({
  needs: metricsKey,
  name: 'metrics',
  thin: true,
  phase: 'after',
  create: (options) => {
    const { metrics } = options;
    const scope = createApiScope(options.prefix ?? '/api');
    // Per request only a map lookup: each (method, route, status) gets its slot in the arrays of
    // `metrics.requests` once. The set is bounded: routes are templates, versions are known names or
    // `none`, statuses and methods are few.
    const series = new Map<string, { slot: number; version: string }>();
    const clientLabel = boundedClients(options.clientOf);
    return (request, reply) => {
      const route = routeUrlOf(request) ?? 'unmatched';
      const status = reply.statusCode;
      const id = `${request.method} ${route} ${status}`;
      let entry = series.get(id);
      if (!entry) {
        const named = scope.versionOf(route) ?? scope.versionOf(request.url);
        const version = named && options.versions().includes(named) ? named : 'none';
        const labels = { method: request.method, route, version, status: String(status) };
        entry = { slot: metrics.requests.slot(`${id} ${version}`, () => labels), version };
        // An unmatched path's version comes from its URL, which varies: only matched routes are kept.
        if (series.size < maxSeries && route !== 'unmatched') series.set(id, entry);
      }
      metrics.requests.observe(entry.slot, reply.elapsedTime / 1000);
      const { version } = entry;
      const state = stateOf(request);
      if (version !== 'none' && state.deprecated) {
        metrics.deprecatedCalls.inc({ version });
        metrics.deprecatedClientCalls.inc({ version, client: clientLabel(request) });
      }
      // Extended access is a rule's decision too, but the call was served, not refused.
      if (state.decision && state.decision !== 'extended_access')
        metrics.refusedCalls.inc({ decision: state.decision });
      if (status === 410) metrics.removedCalls.inc({ version });
      if (status === 429) metrics.rateLimitRejections.inc({ policy: policyLabel(state.rateLimitPolicy) });
    };
  },
});

/**
 * The client a call counts for, as a label: its client id (`cl_…`, else the credential's id,
 * never a key), `anonymous` before or without authentication, and `other` past the first
 * {@link maxClientLabels} clients, so the label set stays bounded.
 */
function boundedClients(clientOf: InstallMetricsOptions['clientOf']): (request: FastifyRequest) => string {
  const named = new Set<string>();
  return (request) => {
    const id = clientOf(request);
    if (id === undefined) return 'anonymous';
    if (named.has(id)) return id;
    if (named.size >= maxClientLabels) return 'other';
    named.add(id);
    return id;
  };
}

// A role name is the app's: only short lowercase ones become a label, so the label set stays small.
function policyLabel(name: string | undefined): string {
  return name !== undefined && /^[a-z]{1,16}$/.test(name) ? name : 'default';
}
