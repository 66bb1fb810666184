import { installListedSteps } from '../../http/pipeline/listed-steps.ts';
import { requestPipeline } from '../../http/pipeline/request-pipeline.ts';
import { defineStep } from '../../http/pipeline/step-definition.ts';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import { VersionaryError } from '../../core/errors/index.ts';
import { brownoutRule } from '../../core/rulebook/index.ts';
import { createBrownoutTable } from './brownout-table.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import { principalOf } from '../../kernel/ports/principal.ts';
import { stateOf } from '../../http/pipeline/request-state.ts';
import { removalDecision } from '../../http/removed-gate.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import { createApiScope } from '../../http/api-scope.ts';
import { routeUrlOf } from '../../http/route-url.ts';
import { ruleMethod } from '../../http/pipeline/route-description.ts';
import { brownoutCanReach, brownoutReachKey } from './brownout-reach.ts';

/** The brownouts in force, cached and refreshed from the store. */
export interface BrownoutCache {
  all(): Brownout[];
  refresh(): Promise<void>;
  /** Call `listener` after a refresh that changed which versions and endpoints a brownout may reach. */
  onChange(listener: () => void): void;
}

/**
 * Cache the config file's brownouts and the stored ones; refreshed every few seconds and after
 * each write, so every instance on the database agrees within that time.
 */
export async function createBrownoutCache(options: {
  configured: Brownout[];
  load: () => Promise<Brownout[]>;
}): Promise<BrownoutCache> {
  // Built once per refresh: the guard reads it on every request.
  let all = [...options.configured, ...(await options.load())];
  let reach = brownoutReachKey(all);
  const listeners: Array<() => void> = [];
  return {
    all: () => all,
    async refresh() {
      all = [...options.configured, ...(await options.load())];
      const before = reach;
      reach = brownoutReachKey(all);
      if (reach !== before) for (const listener of listeners) listener();
    },
    onChange: (listener) => void listeners.push(listener),
  };
}

/**
 * Refuse calls during a brownout as the removal will: 410 (or 404, as `removedStatus` says), with
 * a problem that says it is a brownout, when it ends and when the real removal is. Runs after the
 * lifecycle hook, so the call still carries its deprecation headers; as a refusal it is not counted
 * (`after:usage`).
 */
export function installBrownoutGuard(app: FastifyInstance, options: BrownoutGuardOptions): void {
  installListedSteps({ app, prefix: options.prefix }, 'brownout-guard', options);
  // Compiled again when a brownout is planned or withdrawn somewhere new: see the step's `appliesTo`.
  options.cache.onChange(() => requestPipeline(app, options.prefix).invalidate());
}

/** Options for {@link installBrownoutGuard}. */
export interface BrownoutGuardOptions {
  cache: BrownoutCache;
  runtime: LifecycleRuntime;
  clock: Clock;
  removedStatus: 410 | 404;
  prefix: string;
}

declare module '../../http/pipeline/step-definition.ts' {
  interface StepResources {
    'brownout-guard': BrownoutGuardOptions;
    'brownout-listing': { cache: BrownoutCache; clock: Clock; path: string };
  }
}

/** The `handle:brownout` step of {@link installBrownoutGuard}. */
export const brownoutStep = defineStep({
  part: 'brownout-guard',
  name: 'brownout',
  phase: 'handle',
  // A version's routes but its document, which stays readable as it does after the removal; and
  // only those a brownout in the cache could reach (none, nearly always: no step at all).
  appliesTo: (route, options) =>
    route.url !== undefined &&
    route.version !== undefined &&
    !route.isDocument &&
    brownoutCanReach(options.cache.all(), route),
  create: (options) => {
    // From the prefix the app or gateway configured: a fixed `/api` would let brownouts elsewhere pass.
    const scope = createApiScope(options.prefix);
    const rows = createBrownoutTable({ ...options, brownouts: () => options.cache.all() });
    // Without a brownout (nearly always) the guard returns at once, without a promise.
    return (request) => {
      if (options.cache.all().length === 0) return;
      const route = routeUrlOf(request);
      const api = route ? scope.routeOf(route) : undefined;
      // The version's document stays readable, as it does after the removal the brownout rehearses.
      if (!api || api.path === '/' || api.isDocument) return;
      const { version, template } = api;
      // HEAD is judged as GET: a brownout of `GET /users/{id}` refuses its HEAD too.
      const method = ruleMethod(request.method);
      const principal = principalOf(request);
      const client = principal?.clientId ?? principal?.id;
      // The decision table's brownout rows, decided by core's rule: the one every data plane applies.
      const { table, registry } = rows.of({ version, method, path: template });
      const facts = { method, path: '', version, template, now: options.clock.now() };
      const decision = brownoutRule(client ? { ...facts, principal: { client, roles: [] } } : facts, table);
      if (decision.outcome === 'allow') return;
      // Refused, as after the removal: not usage.
      const state = stateOf(request);
      state.refused = true;
      const error = registry.errorOf(decision.problem)!;
      // Already removed: the removal's own answer, with no brownout and no date to migrate before.
      state.decision = 'brownout' in error.extensions ? 'brownout' : removalDecision(error);
      throw new VersionaryError({
        code: error.code,
        detail: error.detail,
        extensions: error.extensions,
        headers: { ...error.headers, ...decision.problem.headers },
      });
    };
  },
});

/**
 * Add each version's planned brownouts (of every client, not ended) to the lifecycle
 * document at `/api/versions`, as `brownouts: [{ endpoint, startsAt, endsAt }]`.
 */
export function listBrownoutsInLifecycle(
  app: FastifyInstance,
  options: { cache: BrownoutCache; clock: Clock; path: string },
): void {
  installListedSteps(app, 'brownout-listing', options);
}

/** The `serialize:brownout-listing` step of {@link listBrownoutsInLifecycle}. */
export const brownoutListingStep = defineStep({
  part: 'brownout-listing',
  name: 'brownout-listing',
  phase: 'serialize',
  // Compiled into the lifecycle document's route alone.
  appliesTo: (route, options) => route.url === options.path,
  create: (options) => (_request, _reply, payload) =>
    typeof payload === 'object' && payload !== null ? withBrownouts(payload, options) : undefined,
});

function withBrownouts(payload: object, options: { cache: BrownoutCache; clock: Clock }): unknown {
  const document = payload as { versions?: Array<{ name: string }> };
  if (!Array.isArray(document.versions)) return payload;
  const now = options.clock.now();
  // Public: brownouts of every client only; a targeted one is told to its clients (notices, dashboard).
  const planned = options.cache
    .all()
    .filter((b) => b.clientId === undefined && b.clients === undefined && b.endsAt > now);
  return {
    ...document,
    versions: document.versions.map((v) => ({
      ...v,
      brownouts: planned
        .filter((b) => b.version === v.name)
        .map((b) => ({
          endpoint: b.endpoint ?? null,
          startsAt: formatIsoInstant(b.startsAt),
          endsAt: formatIsoInstant(b.endsAt),
        })),
    })),
  };
}
