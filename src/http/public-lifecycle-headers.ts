import { hasDeprecation, stateOf } from './pipeline/request-state.ts';
import { defineStep } from './pipeline/step-definition.ts';
import { knownVerdict } from './removed-gate.ts';
import { setOrJoin } from './set-or-join.ts';

/**
 * The `respond:public-lifecycle-headers` step, installed with the removed gate: the spec says
 * every response of a deprecated version (or endpoint) carries `Deprecation`, `Sunset` and its
 * `Link`, but the lifecycle step runs once the caller is identified, so the answers refused
 * before it (an `Accept` that contradicts the path, a repeated credential header, a 401, a 429)
 * would carry none. They get the version's public headers here: the lifecycle's own values, the
 * same text the lifecycle step sends. A caller granted extended access gets its own dates only
 * once identified, from the lifecycle step, which this step never overrides.
 */
export const publicLifecycleHeadersStep = defineStep({
  part: 'removed-gate',
  name: 'public-lifecycle-headers',
  phase: 'respond',
  appliesTo: (route) => route.version !== undefined && !route.isDocument,
  create:
    ({ lifecycle }) =>
    // eslint-disable-next-line max-params -- a payload step is given its route after Fastify's three
    (request, reply, _payload, route) => {
      const state = stateOf(request);
      if (state.lifecycleJudged || reply.hasHeader('deprecation')) return;
      // The removed gate's key: a path with no route is judged by its version alone.
      const routed = route.url !== undefined;
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const key = { version: route.version!, method: routed ? method : 'GET', path: routed ? route.template! : '/' };
      const judged = state.verdict;
      const verdict =
        judged && judged.method === key.method && judged.path === key.path
          ? judged.verdict
          : knownVerdict(lifecycle, key);
      if (!verdict || !hasDeprecation(verdict.headers)) return;
      for (const [name, value] of Object.entries(verdict.headers))
        if (name.toLowerCase() === 'link') setOrJoin(reply, name, value);
        else if (!reply.hasHeader(name)) reply.header(name, value);
    },
});
