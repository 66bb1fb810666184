import type { FastifyRequest } from 'fastify';
import { createApiScope } from '../api-scope.ts';
import { defineStep, stepKey } from '../pipeline/step-definition.ts';
import { VersionaryAttribute as A } from './attribute-names.ts';
import { createBoundedValues } from './bounded-values.ts';
import { createCallCounter } from './call-counter.ts';
import { callFactsOf } from './call-facts.ts';
import { recordingSpanOf } from './request-span.ts';

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
