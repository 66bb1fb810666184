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

/**
 * The names Versionary writes on the request's span and on its call counter, in one place: the
 * docs (`docs/observability/attributes.md`) list these same names, and every writer imports them.
 * The standard HTTP attributes (`http.request.method`, `http.response.status_code`) are the
 * instrumentation's (`@fastify/otel`); only `http.route` is repeated, on the counter.
 */
const A = {
  /** The version the call addressed, `v1`. */
  version: 'versionary.api.version',
  /** Where that version came from: `path` or `accept`. */
  versionSource: 'versionary.api.version_source',
  /** Whether the answer carried a `Deprecation` header (a version, endpoint, field or parameter). */
  deprecated: 'versionary.deprecated',
  /** The sunset that applies to this client, ISO 8601. */
  sunset: 'versionary.sunset',
  /** The version clients should move to. */
  replacement: 'versionary.replacement',
  /** The deprecated fields and parameters the call used (`User.nickname`). */
  deprecatedElements: 'versionary.deprecated_elements',
  /** The client the call counts for, once identified: never a credential. */
  clientId: 'versionary.client.id',
  /** A rule that answered instead of the handler, or let a removed call through. */
  decision: 'versionary.decision',
  /** The matched route's pattern, on the counter (the span has it from the instrumentation). */
  route: 'http.route',
} as const;

/** The meter and counter Versionary records calls on. */
const versionaryMeter = { name: 'versionary', calls: 'versionary.calls' } as const;

/** What {@link telemetryStep} is made from. */
export interface TelemetryOptions {
  /** Where the API lives (`/api`): the version is the segment after it. */
  prefix: string;
  /** The client a call counts for, once identified (never a credential); absent for anonymous calls. */
  clientOf?: ((request: FastifyRequest) => string | undefined) | undefined;
}

/** Distinct client ids the counter keeps per process; every later one is counted as `other`. */
const counterClientLimit = 100;

export const telemetryKey = stepKey<TelemetryOptions>('telemetry');

/**
 * The `respond:telemetry` step: write the `versionary.*` attributes on the request's span and
 * count the call on the `versionary.calls` counter, through `@opentelemetry/api` only: with no SDK
 * registered, neither is recording and the step returns before reading anything. In `onSend`, once
 * every rule has answered or let the call through, and before `@fastify/otel` ends the request's span there.
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

/** What the steps of a request found, read once for the span and the counter. */
interface CallFacts {
  version: string;
  /** The matched route's pattern; `undefined` for a path no route matched. */
  route: string | undefined;
  deprecated: boolean;
  clientId: string | undefined;
  attributes: Attributes;
}

/**
 * The `versionary.*` attributes of a call, from what its steps already wrote in the request state
 * (the version's source, the verdict applied, the elements used, the rule that answered) and the
 * client as the app identifies it: no rule is decided again here.
 */
function callFactsOf(
  request: FastifyRequest,
  o: { scope: ApiScope; clientOf: ((request: FastifyRequest) => string | undefined) | undefined },
): CallFacts | undefined {
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
 * The span of the request, if it is being recorded. With `@fastify/otel`, every hook runs inside
 * a span of its own, so the active span in a hook is that hook's: the request span is the one the
 * instrumentation keeps on the request. Without it (another instrumentation, such as the HTTP
 * server's), the active span is the request's. `undefined` when no SDK is registered, so that a
 * caller builds no value for nothing.
 */
function recordingSpanOf(request: FastifyRequest): Span | undefined {
  const own = (request as Instrumented).opentelemetry;
  const span = typeof own === 'function' ? (own.call(request).span ?? undefined) : trace.getActiveSpan();
  return span?.isRecording() ? span : undefined;
}

// The API's no-op meter hands out one shared counter: a counter that is it records nothing.
const noopCounter = createNoopMeter().createCounter(versionaryMeter.calls);

/**
 * The `versionary.calls` counter of the MeterProvider registered now, or `undefined` when none is
 * (the caller then builds no attributes). The API hands a no-op meter for good when asked before
 * an SDK registers (the SDK may start after the app is built), so the counter is made again
 * whenever the global provider changes: one comparison per call.
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

/** The value every client past the bound is counted as. */
const otherValue = 'other';

/**
 * A label that keeps at most `limit` distinct values for the life of the process: the first ones
 * seen stay themselves, every later one is {@link otherValue}. A counter by client would otherwise
 * make one series per client, and a metrics backend pays for every series.
 */
export function createBoundedValues(limit: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= limit) return otherValue;
    seen.add(value);
    return value;
  };
}
