import { installListedSteps } from '../../http/pipeline/listed-steps.ts';
import { requestPipeline } from '../../http/pipeline/request-pipeline.ts';
import { defineStep } from '../../http/pipeline/step-definition.ts';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import { activeBrownout, type Brownout } from '../../core/notices/index.ts';
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
    // Without a brownout (nearly always) the guard returns at once, without a promise.
    return (request) => {
      if (options.cache.all().length === 0) return;
      const route = routeUrlOf(request);
      const api = route ? scope.routeOf(route) : undefined;
      // The version's document stays readable, as it does after the removal the brownout rehearses.
      if (!api || api.path === '/' || api.isDocument) return;
      const { version } = api;
      // HEAD is judged as GET: a brownout of `GET /users/{id}` refuses its HEAD too.
      const method = ruleMethod(request.method);
      const endpoint = `${method} ${api.template}`;
      const principal = principalOf(request);
      const clientId = principal?.clientId ?? principal?.id;
      const b = activeBrownout({
        brownouts: options.cache.all(),
        version,
        endpoint,
        ...(clientId ? { clientId } : {}),
        now: options.clock.now(),
        // Evaluated only for a window in force: a client with extended access is spared it.
        exempt: (brownout, id) =>
          id !== undefined && spared(options.runtime, { brownout, clientId: id, now: options.clock.now() }),
      });
      if (!b) return;
      // Refused, as after the removal: not usage.
      const state = stateOf(request);
      state.refused = true;
      const verdict = options.runtime.verdict({
        version,
        method,
        path: endpoint.slice(endpoint.indexOf(' ') + 1),
      });
      // Already removed: the removal's own answer, with no brownout and no date to migrate before.
      state.decision = verdict.removed ? removalDecision(verdict.removed) : 'brownout';
      if (verdict.removed) throw verdict.removed;
      const removalAt = verdict.sunsetAt === undefined ? null : formatIsoInstant(verdict.sunsetAt);
      const what = b.endpoint ? `${b.endpoint} in ${version}` : version;
      throw new VersionaryError({
        code: options.removedStatus === 404 ? ErrorCode.NotFound : ErrorCode.VersionRemoved,
        detail: `${what} is in a ${b.clientId ? 'brownout rehearsal for your client' : b.clients ? 'planned brownout aimed at your client' : 'planned brownout'} until ${formatIsoInstant(b.endsAt)}: it answers as it will after its removal${removalAt ? ` on ${removalAt}` : ''}. Migrate before then.`,
        extensions: {
          brownout: {
            id: b.id,
            startsAt: formatIsoInstant(b.startsAt),
            endsAt: formatIsoInstant(b.endsAt),
            rehearsal: b.clientId !== undefined,
          },
          removalAt,
          migrationGuide: options.runtime.migrationUrl(version),
        },
        headers: { 'retry-after': String(Math.max(1, Math.ceil((b.endsAt - options.clock.now()) / 1000))) },
      });
    };
  },
});

/**
 * Whether a client with extended access is spared a brownout: an exemption for the brownout's
 * version, or for its endpoint, whose date (within the cap) is still ahead.
 */
function spared(runtime: LifecycleRuntime, o: { brownout: Brownout; clientId: string; now: number }): boolean {
  const { brownout: b, clientId, now } = o;
  const own =
    runtime.extensionOf(clientId, { version: b.version }) ??
    (b.endpoint ? runtime.extensionOf(clientId, { version: b.version, endpoint: b.endpoint }) : undefined);
  return own !== undefined && own > now;
}

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
