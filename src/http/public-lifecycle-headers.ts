import type { FastifyReply } from 'fastify';
import type { LifecycleSource } from '../core/lifecycle/index.ts';
import { hasDeprecation, stateOf } from './pipeline/request-state.ts';
import { defineStep } from './pipeline/step-definition.ts';
import { gateKeyOf, publicAnswer, removedGateKey } from './removed-gate.ts';
import { setOrJoin } from './set-or-join.ts';
import { whenReady } from './public-decision.ts';

/**
 * The `respond:public-lifecycle-headers` step: every response of a deprecated version carries its
 * headers (the spec), so answers refused before the lifecycle step (a 401, a 429) get the public
 * ones here; a caller's own dates come from the lifecycle step, which this never overrides.
 */
export const publicLifecycleHeadersStep = defineStep({
  needs: removedGateKey,
  name: 'public-lifecycle-headers',
  thin: true,
  phase: 'respond',
  appliesTo: (route, { lifecycle }) =>
    route.version !== undefined && !route.isDocument && !knownUnscheduled(lifecycle, gateKeyOf(route)),
  create:
    (options) =>
    // eslint-disable-next-line max-params -- a payload step is given its route after Fastify's three
    (request, reply, _payload, route) => {
      const state = stateOf(request);
      if (state.lifecycleJudged || reply.hasHeader('deprecation')) return;
      return whenReady(publicAnswer(options, { request, route, removal: false }), (answer) => {
        if (!answer || !hasDeprecation(answer.headers)) return;
        // The span and metrics say so too (`telemetry/telemetry-step.ts`).
        state.deprecated = true;
        const key = gateKeyOf(route);
        state.verdict ??= { method: key.method, path: key.path, verdict: answer.verdict() };
        joinHeaders(reply, answer.headers);
      });
    },
});

/** The lifecycle's headers on an early answer: its `Link` joined to any, the others where none is set. */
function joinHeaders(reply: FastifyReply, headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'link') setOrJoin(reply, name, value);
    else if (!reply.hasHeader(name)) reply.header(name, value);
}

// A key with no schedule sends nothing: a current version's routes compile without this step. Only
// a source that says when it changes can tell (`liveLifecycleHook` recompiles the plans on a change).
function knownUnscheduled(lifecycle: LifecycleSource, key: { version: string; method: string; path: string }): boolean {
  return lifecycle.onChange !== undefined && lifecycle.unscheduled?.(key) === true;
}
