import {
  createNoopMeter,
  metrics,
  trace,
  type Attributes,
  type Counter,
  type MeterProvider,
  type Span,
} from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { formatIsoInstant } from '../../core/time/index.ts';
import { createApiScope, type ApiScope } from '../api-scope.ts';
import { stateOf } from '../pipeline/request-state.ts';
import { defineStep, stepKey } from '../pipeline/step-definition.ts';
import { routeUrlOf } from '../route-url.ts';

/** The names on the request's span and call counter, as `docs/observability/attributes.md` lists them. */
const A = {
  version: 'versionary.api.version',
  versionSource: 'versionary.api.version_source',
  deprecated: 'versionary.deprecated',
  sunset: 'versionary.sunset',
  replacement: 'versionary.replacement',
  deprecatedElements: 'versionary.deprecated_elements',
  clientId: 'versionary.client.id',
  decision: 'versionary.decision',
  route: 'http.route',
} as const;

const versionaryMeter = { name: 'versionary', calls: 'versionary.calls' } as const;

export interface TelemetryOptions {
  prefix: string;
  /** The client a call counts for, once identified (never a credential); absent for anonymous calls. */
  clientOf?: ((request: FastifyRequest) => string | undefined) | undefined;
}

/** Distinct client ids the counter keeps per process; every later one is counted as `other`. */
const counterClientLimit = 100;

export const telemetryKey = stepKey<TelemetryOptions>('telemetry');

/**
 * The `respond:telemetry` step: attributes on the request's span and a count on `versionary.calls`;
 * nothing is read when neither records. In `onSend`, before `@fastify/otel` ends the span.
 */
export const telemetryStep = defineStep({
  needs: telemetryKey,
  name: 'telemetry',
  thin: true,
  phase: 'respond',
  appliesTo: (route) => route.version !== undefined && !route.isDocument,
  create: (options) => {
    const scope = createApiScope(options.prefix);
    const counterNow = createCallCounter();
    const boundClient = createBoundedValues(counterClientLimit);
    return (request) => {
      const span = recordingSpanOf(request);
      const counter = counterNow();
      if (!span && !counter) return;
      const facts = callFactsOf(request, { scope, clientOf: options.clientOf });
      if (!facts) return;
      span?.setAttributes(facts.attributes);
      // Only calls that matched a route: a path no route matched would make a series per typo.
      if (!counter || facts.route === undefined) return;
      counter.add(1, {
        [A.version]: facts.version,
        [A.deprecated]: facts.deprecated,
        [A.route]: facts.route,
        ...(facts.clientId === undefined ? {} : { [A.clientId]: boundClient(facts.clientId) }),
      });
    };
  },
});

/** The `versionary.*` attributes of a call, from what its steps wrote in the request state. */
function callFactsOf(request: FastifyRequest, o: { scope: ApiScope } & Pick<TelemetryOptions, 'clientOf'>) {
  const route = routeUrlOf(request);
  const version = o.scope.versionOf(route ?? request.url);
  if (version === undefined) return undefined;
  const state = stateOf(request);
  const deprecated = state.deprecated === true;
  const attributes: Attributes = {
    [A.version]: version,
    [A.versionSource]: state.versionFromAccept ? 'accept' : 'path',
    [A.deprecated]: deprecated,
  };
  // The sunset and replacement only beside `deprecated: true`, as the answer's headers go together.
  const verdict = deprecated ? (state.lifecycleVerdict ?? state.verdict?.verdict) : undefined;
  if (verdict?.deprecated && verdict.sunsetAt !== undefined) attributes[A.sunset] = formatIsoInstant(verdict.sunsetAt);
  if (verdict?.deprecated && verdict.replacement !== undefined) attributes[A.replacement] = verdict.replacement;
  if (state.deprecatedElements?.length) attributes[A.deprecatedElements] = [...state.deprecatedElements];
  if (state.decision !== undefined) attributes[A.decision] = state.decision;
  const clientId = o.clientOf?.(request);
  if (clientId !== undefined) attributes[A.clientId] = clientId;
  return { version, route, deprecated, clientId, attributes };
}

// What `@fastify/otel` decorates each request with: the request's own span, whichever hook runs.
type Instrumented = FastifyRequest & { opentelemetry?: () => { span?: Span | null } };

/**
 * The request's span, if recording: with `@fastify/otel` each hook has its own span, so the request's
 * is the one kept on the request.
 */
function recordingSpanOf(request: FastifyRequest): Span | undefined {
  const own = (request as Instrumented).opentelemetry;
  const span = typeof own === 'function' ? (own.call(request).span ?? undefined) : trace.getActiveSpan();
  return span?.isRecording() ? span : undefined;
}

// The API's no-op meter hands out one shared counter: a counter that is it records nothing.
const noopCounter = createNoopMeter().createCounter(versionaryMeter.calls);

/**
 * The `versionary.calls` counter, made again when the provider changes (one made before is a no-op).
 * @internal exported for the tests
 */
export function createCallCounter(): () => Counter | undefined {
  let provider: MeterProvider | undefined;
  let counter: Counter | undefined;
  return () => {
    const current = metrics.getMeterProvider();
    if (current !== provider) {
      provider = current;
      const made = current.getMeter(versionaryMeter.name).createCounter(versionaryMeter.calls, {
        description: 'Calls of a version of the API, by version, deprecation, route and client.',
        unit: '{call}',
      });
      counter = made === noopCounter ? undefined : made;
    }
    return counter;
  };
}

/**
 * A label that keeps at most `limit` distinct values (later ones are `other`): a backend pays per series.
 * @internal exported for the tests
 */
export function createBoundedValues(limit: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= limit) return 'other';
    seen.add(value);
    return value;
  };
}
